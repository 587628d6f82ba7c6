#include "kernel/module_build.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

namespace fs = std::filesystem;

// Records the spec; "builds" the .ko when told to.
class FakeMake : public ProcessRunner {
 public:
  explicit FakeMake(bool produce) : m_produce(produce) {}
  ProcessResult run(const ProcessSpec& spec) override {
    m_spec = spec;
    ProcessResult result;
    result.end = ProcessEnd::k_exited;
    result.exit_code = m_produce ? 0 : 2;
    result.err = m_produce ? "" : "memmap_dump.c:1: error: boom\n";
    if (m_produce) {
      testing::put_file(fs::path(spec.argv[3].substr(2)) / "memmap_dump.ko", "ELF");
    }
    return result;
  }
  ProcessSpec m_spec;

 private:
  bool m_produce;
};

struct Dirs {
  testing::TempDir tmp;
  fs::path kernel = tmp / "build";
  fs::path source = tmp / "src";
  fs::path out = tmp / "out";
  Dirs() {
    testing::put_file(kernel / ".config", "CONFIG_MODULES=y\n");
    testing::put_file(kernel / "Module.symvers", "");
    testing::put_file(source / "Kbuild", "obj-m += memmap_dump.o\n");
    testing::put_file(source / "memmap_dump.c", "/* module */\n");
    testing::put_file(source / "README.md", "not copied\n");
    testing::put_file(out / "stale.o", "from another kernel\n");
  }
  ModuleBuildSpec spec(std::vector<std::string> args = {}) const {
    return {kernel, source, out, std::move(args), {}};
  }
};

TEST(ModuleBuild, CopiesTheSourceAndRunsMakeWithM) {
  Dirs d;
  FakeMake make(true);
  const auto kos = build_module(d.spec({"CC=ccache gcc"}), make);
  ASSERT_EQ(kos.size(), 1U);
  EXPECT_EQ(kos[0], d.out / "memmap_dump.ko");
  ASSERT_EQ(make.m_spec.argv.size(), 6U);
  EXPECT_EQ(make.m_spec.argv[0], "make");
  EXPECT_EQ(make.m_spec.argv[2], fs::absolute(d.kernel).string());
  EXPECT_EQ(make.m_spec.argv[3], "M=" + fs::absolute(d.out).string());
  EXPECT_EQ(make.m_spec.argv[4], "CC=ccache gcc");
  EXPECT_EQ(make.m_spec.argv[5], "modules");
  EXPECT_TRUE(fs::exists(d.out / "memmap_dump.c"));
  EXPECT_TRUE(fs::exists(d.out / "Kbuild"));
  EXPECT_FALSE(fs::exists(d.out / "README.md"));
  EXPECT_FALSE(fs::exists(d.out / "stale.o"));
}

TEST(ModuleBuild, AFailedBuildSaysWhy) {
  Dirs d;
  FakeMake make(false);
  try {
    build_module(d.spec(), make);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("error: boom"), std::string::npos) << e.what();
  }
}

// A make that printed nothing and was stopped at its time limit (one that
// waited for another build's lock): an infrastructure error naming the
// limit. It was an internal error (std::out_of_range from the tail of the
// empty output) that ended a whole gate.
TEST(ModuleBuild, ASilentMakeStoppedAtItsLimitIsAnInfrastructureError) {
  Dirs d;
  struct SilentTimeout : ProcessRunner {
    ProcessResult run(const ProcessSpec&) override {
      ProcessResult result;
      result.end = ProcessEnd::k_timed_out;
      return result;
    }
  } make;
  try {
    build_module(d.spec(), make);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("modules"), std::string::npos) << e.what();
  }
}

TEST(ModuleBuild, RefusesAKernelWithoutModules) {
  Dirs d;
  fs::remove(d.kernel / "Module.symvers");
  FakeMake make(true);
  EXPECT_THROW(build_module(d.spec(), make), Error);
}

TEST(ModuleBuild, SourceHashFollowsTheSourcesOnly) {
  Dirs d;
  const std::string before = module_source_hash(d.source);
  testing::put_file(d.source / "README.md", "docs change\n");
  EXPECT_EQ(module_source_hash(d.source), before);
  testing::put_file(d.source / "memmap_dump.c", "/* module, changed */\n");
  EXPECT_NE(module_source_hash(d.source), before);
}

}  // namespace
}  // namespace kseries::kernel
