#include "oracle/module_build.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::oracle {
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
};

TEST(OracleModuleBuild, CopiesTheSourceAndRunsMakeWithM) {
  Dirs d;
  FakeMake make(true);
  const fs::path ko = build_module(d.kernel, d.source, d.out, make);
  EXPECT_EQ(ko, d.out / "memmap_dump.ko");
  ASSERT_EQ(make.m_spec.argv.size(), 5U);
  EXPECT_EQ(make.m_spec.argv[0], "make");
  EXPECT_EQ(make.m_spec.argv[2], fs::absolute(d.kernel).string());
  EXPECT_EQ(make.m_spec.argv[3], "M=" + fs::absolute(d.out).string());
  EXPECT_EQ(make.m_spec.argv[4], "modules");
  EXPECT_TRUE(fs::exists(d.out / "memmap_dump.c"));
  EXPECT_TRUE(fs::exists(d.out / "Kbuild"));
  EXPECT_FALSE(fs::exists(d.out / "README.md"));
  EXPECT_FALSE(fs::exists(d.out / "stale.o"));
}

TEST(OracleModuleBuild, AFailedBuildSaysWhy) {
  Dirs d;
  FakeMake make(false);
  try {
    build_module(d.kernel, d.source, d.out, make);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("error: boom"), std::string::npos) << e.what();
  }
}

TEST(OracleModuleBuild, RefusesAKernelWithoutModules) {
  Dirs d;
  fs::remove(d.kernel / "Module.symvers");
  FakeMake make(true);
  EXPECT_THROW(build_module(d.kernel, d.source, d.out, make), Error);
}

}  // namespace
}  // namespace kseries::oracle
