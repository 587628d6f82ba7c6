#include "kernel/kernel_build.h"

#include <chrono>
#include <functional>
#include <thread>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "kernel/kernel_verify.h"
#include "sys/file_lock.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

namespace fs = std::filesystem;
using testing::put_file;

bool has(const std::vector<std::string>& argv, const std::string& word) {
  return std::find(argv.begin(), argv.end(), word) != argv.end();
}

// make, merge_config.sh and the compiler as a kernel tree would answer
// them: the configuration steps write build/.config, the make of the
// kernel its artifacts and a log. No process is started.
class FakeKernelTools : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override {
    const auto& argv = spec.argv;
    calls.push_back(argv);
    ProcessResult result;
    result.exit_code = 0;
    if (has(argv, "--version")) {
      result.out = "gcc (Fake) 12.2.0\n";
      return result;
    }
    const auto out_arg = std::find_if(argv.begin(), argv.end(),
                                      [](const std::string& a) { return a.rfind("O=", 0) == 0; });
    if (argv.front() == "scripts/kconfig/merge_config.sh") {
      const fs::path config = argv[4];
      std::string text = read_file(config);
      for (std::size_t i = 5; i < argv.size(); ++i) {
        text += read_file(argv[i]);
      }
      write_file(config, text + drop);
      return result;
    }
    const fs::path build = out_arg->substr(2);
    if (has(argv, "tinyconfig")) {
      write_file(build / ".config", "CONFIG_MODULES=n\n");
    } else if (!has(argv, "olddefconfig")) {
      ++makes;
      std::string log = "  CC      mm/a.o\n  CC      mm/b.o\n";
      if (!make_error.empty()) {
        log += make_error;
        result.exit_code = 2;
      } else {
        // What kbuild's fixdep leaves: the source and what it included.
        const std::string src = argv[2];
        put_file(build / "mm/.a.o.cmd",
                 "savedcmd_mm/a.o := gcc -c -o mm/a.o " + src + "/mm/a.c\n\nsource_mm/a.o := " +
                     src + "/mm/a.c\n\ndeps_mm/a.o := \\\n  " + src +
                     "/include/linux/kconfig.h \\\n    $(wildcard include/config/FOO) \\\n"
                     "  include/generated/autoconf.h \\\n\nmm/a.o: $(deps_mm/a.o)\n\n"
                     "$(deps_mm/a.o):\n");
        put_file(build / "arch/x86/boot/bzImage", "image of " + read_file(src + "/mm/a.c"));
        put_file(build / "vmlinux", "elf");
        put_file(build / "System.map", "map");
        if (during_make) {
          during_make(fs::path(src));  // another program at work in the checkout
        }
      }
      std::string old =
          spec.log_file && fs::exists(*spec.log_file) ? read_file(*spec.log_file) : "";
      write_file(*spec.log_file, old + log);
      for (const auto line : split_lines(log)) {
        if (spec.on_line) {
          spec.on_line(line);  // as the real runner streams make's output
        }
      }
    }
    return result;
  }

  std::vector<std::vector<std::string>> calls;
  int makes = 0;
  std::string make_error;  // a log line that makes the kernel's make fail
  std::string drop;        // a line olddefconfig "resolves" into .config
  std::function<void(const fs::path& src)> during_make;
};

class KernelBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path src = m_tmp / "linux";
    put_file(src / "Kconfig", "config FOO\n\tbool \"foo\"\n");
    put_file(src / "mm/a.c", "int a;\n");
    put_file(src / "include/linux/kconfig.h", "#define K 1\n");
    testing::git(src, {"init", "-q"});
    testing::git(src, {"add", "-A"});
    testing::git(src, {"commit", "-q", "-m", "base"});
    m_commit = m_store.borrow_commit(src, "HEAD");
    put_file(m_tmp / "foo.config", "CONFIG_FOO=y\n");
    m_target.name = "toy";
    m_target.fragments = {m_tmp / "foo.config"};
  }

  BuildRequest request(bool configure_only = false) const {
    return {.target = &m_target,
            .commit = m_commit,
            .log = m_tmp / "build.log",
            .configure_only = configure_only};
  }

  git::Session m_session;
  testing::TempDir m_tmp;
  git::Store m_store{m_tmp / "store.git"};
  FakeKernelTools m_tools;
  KernelBuilder m_builder{m_tmp / "wd", m_store, m_tools, 2};
  Target m_target;
  git_oid m_commit{};
};

TEST_F(KernelBuildTest, BuildsOnceThenTheSameRequestIsCached) {
  const auto built = m_builder.build(request());
  ASSERT_EQ(built.status, StepStatus::k_built);
  ASSERT_TRUE(built.kernel.has_value());
  EXPECT_EQ(built.compiled, 2u);
  EXPECT_TRUE(fs::exists(built.kernel->image));
  EXPECT_EQ(built.log, m_tmp / "build.log");
  EXPECT_EQ(m_tools.makes, 1);
  const auto again = m_builder.build(request());
  EXPECT_EQ(again.status, StepStatus::k_cached);
  ASSERT_TRUE(again.kernel.has_value());
  EXPECT_EQ(again.kernel->key, built.kernel->key);
  EXPECT_EQ(m_tools.makes, 1);  // no make, not even a checkout's configuration
  EXPECT_TRUE(m_builder.find(m_target, m_commit).has_value());
}

// One kernel make at a time in a work directory: a build waits, saying so,
// while another holds the slot, and holds it while its make runs.
TEST_F(KernelBuildTest, OneKernelMakeAtATimeInAWorkDirectory) {
  const fs::path slot = m_tmp / "wd" / "build.slot";
  fs::create_directories(slot.parent_path());
  std::string holder;
  auto other = FileLock::try_acquire(slot, "another kseries' make", holder);
  ASSERT_TRUE(other.has_value());
  std::vector<std::string> said;
  int makes_while_held = -1;
  std::thread releaser;
  auto req = request();
  req.progress = [&](const std::string& text) {
    said.push_back(text);
    if (text.find("waiting for the build slot") != std::string::npos) {
      releaser = std::thread([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        makes_while_held = m_tools.makes;
        other.reset();
      });
    }
  };
  std::string seen_holder;
  bool free_during_make = true;
  m_tools.during_make = [&](const fs::path&) {
    free_during_make = FileLock::try_acquire(slot, "probe", seen_holder).has_value();
  };
  const auto built = m_builder.build(req);
  ASSERT_TRUE(releaser.joinable()) << "the build never said it waited";
  releaser.join();
  EXPECT_EQ(built.status, StepStatus::k_built);
  EXPECT_EQ(makes_while_held, 0);
  EXPECT_FALSE(free_during_make);
  EXPECT_NE(seen_holder.find("make for target toy"), std::string::npos) << seen_holder;
  const auto waited = std::find_if(said.begin(), said.end(), [](const std::string& s) {
    return s.find("waiting for the build slot") != std::string::npos;
  });
  ASSERT_NE(waited, said.end());
  EXPECT_NE(waited->find("another kseries' make"), std::string::npos) << *waited;
  // Released with the make: the next holder takes it at once.
  EXPECT_TRUE(FileLock::try_acquire(slot, "after", holder).has_value());
}

// A tree patch is applied after the checkout, is part of the kernel's key,
// and is taken back on the next checkout of a target without it.
TEST_F(KernelBuildTest, ATreePatchIsAppliedKeyedAndTakenBack) {
  const auto plain = m_builder.build(request());
  ASSERT_TRUE(plain.kernel.has_value());
  put_file(m_tmp / "t.patch",
           "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n@@ -1 +1 @@\n-int a;\n"
           "+int a = 80;\n");
  m_target.tree_patches = {m_tmp / "t.patch"};
  const auto patched = m_builder.build(request());
  ASSERT_EQ(patched.status, StepStatus::k_built);
  EXPECT_NE(patched.kernel->key, plain.kernel->key);
  const fs::path target_dir = m_tmp / "wd" / "targets" / "toy";
  EXPECT_EQ(read_file(target_dir / "src" / "mm/a.c"), "int a = 80;\n");
  EXPECT_EQ(read_file(target_dir / "src.tree-patch"), "mm/a.c\n");
  EXPECT_EQ(m_builder.build(request()).status, StepStatus::k_cached);
  // Without it (and a fragment comment, so the request is new): the file is
  // the commit's again, and the kernel is not the patched one.
  m_target.tree_patches.clear();
  put_file(m_tmp / "foo.config", "# again\nCONFIG_FOO=y\n");
  const auto again = m_builder.build(request());
  ASSERT_TRUE(again.kernel.has_value());
  EXPECT_NE(again.kernel->key, patched.kernel->key);
  EXPECT_EQ(read_file(target_dir / "src" / "mm/a.c"), "int a;\n");
  EXPECT_FALSE(fs::exists(target_dir / "src.tree-patch"));
}

// The request says how far to go; nothing of one request carries to the next.
TEST_F(KernelBuildTest, ConfigureOnlyIsTheRequestsNotTheBuilders) {
  const auto configured = m_builder.build(request(true));
  EXPECT_EQ(configured.status, StepStatus::k_configured);
  EXPECT_FALSE(configured.kernel.has_value());
  EXPECT_EQ(m_tools.makes, 0);
  EXPECT_EQ(m_builder.build(request()).status, StepStatus::k_built);
  EXPECT_EQ(m_tools.makes, 1);
}

TEST_F(KernelBuildTest, ASymbolTheConfigurationDropsIsNotConstructible) {
  m_tools.drop = "# CONFIG_FOO is not set\n";
  const auto result = m_builder.build(request());
  EXPECT_EQ(result.status, StepStatus::k_not_constructible);
  ASSERT_FALSE(result.dropped.empty());
  EXPECT_NE(result.dropped.front().find("FOO"), std::string::npos) << result.dropped.front();
  EXPECT_EQ(m_tools.makes, 0);
}

TEST_F(KernelBuildTest, AFailedMakeIsAResultWithItsErrors) {
  m_tools.make_error = "../src/mm/a.c:1:5: error: 'a' redeclared\n";
  const auto result = m_builder.build(request());
  EXPECT_EQ(result.status, StepStatus::k_build_failed);
  EXPECT_FALSE(result.kernel.has_value());
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].file, "mm/a.c");
  EXPECT_EQ(result.errors[0].line, 1);
}

TEST_F(KernelBuildTest, AnUnknownSymbolInAFragmentIsAUsageError) {
  put_file(m_tmp / "foo.config", "CONFIG_FOO=y\nCONFIG_NOSUCH=y\n");
  try {
    m_builder.build(request());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    EXPECT_NE(std::string(e.what()).find("CONFIG_NOSUCH"), std::string::npos) << e.what();
  }
}

// The stored kernel says what it was built from: every file make read
// (from the .cmd files), each with the blob the commit has.
TEST_F(KernelBuildTest, AStoredKernelRecordsTheSourcesMakeRead) {
  const auto built = m_builder.build(request());
  ASSERT_EQ(built.status, StepStatus::k_built);
  const auto sources = parse_manifest(read_file(built.kernel->dir / k_sources_file));
  ASSERT_EQ(sources.size(), 2u);
  EXPECT_EQ(sources[0].first, "include/linux/kconfig.h");
  EXPECT_EQ(sources[1].first, "mm/a.c");
  git_oid blob;
  ASSERT_EQ(git_odb_hash(&blob, "int a;\n", 7, GIT_OBJECT_BLOB), 0);
  EXPECT_EQ(sources[1].second, git::to_hex(blob));
  EXPECT_EQ(record_problem(built.kernel->dir, ""), "");
  const auto verified = verify_stored_kernels(m_store, m_tmp / "wd", "");
  ASSERT_EQ(verified.size(), 1u);
  EXPECT_TRUE(verified[0].problems.empty()) << verified[0].problems.front();
}

// Another program rewrites a source file while make runs (issue 45: a second
// kseries checked out its revision into the same tree): the kernel is not
// stored, the file is restored and the kernel built again from the commit.
TEST_F(KernelBuildTest, ASourceChangedWhileMakeRanIsNeverStored) {
  int writes = 0;
  m_tools.during_make = [&](const fs::path& src) {
    if (writes++ == 0) {
      put_file(src / "mm/a.c", "int a = 99; /* another revision */\n");
    }
  };
  std::vector<std::string> lines;
  auto req = request();
  req.progress = [&](const std::string& line) { lines.push_back(line); };
  const auto built = m_builder.build(req);
  ASSERT_EQ(built.status, StepStatus::k_built);
  EXPECT_EQ(m_tools.makes, 2);
  EXPECT_EQ(read_file(built.kernel->image), "image of int a;\n");
  EXPECT_EQ(read_file(m_tmp / "wd/targets/toy/src/mm/a.c"), "int a;\n");
  const auto said = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("the source tree changed while make ran: 1 file(s) (mm/a.c)") == 0;
  });
  EXPECT_NE(said, lines.end());
}

// A checkout that holds other bytes than its record says (changed before
// the make, so the stat snapshot cannot see it): the hash of what make read
// finds it.
TEST_F(KernelBuildTest, ACheckoutThatIsNotTheCommitIsNeverStored) {
  ASSERT_EQ(m_builder.build(request()).status, StepStatus::k_built);
  // The checkout still says it holds the commit; a file says otherwise.
  put_file(m_tmp / "wd/targets/toy/src/include/linux/kconfig.h", "#define K 2\n");
  put_file(m_tmp / "foo.config", "# a new request\nCONFIG_FOO=y\n");
  m_tools.drop = "CONFIG_BAR=y\n";  // another .config: a new key, a make
  std::vector<std::string> lines;
  auto req = request();
  req.progress = [&](const std::string& line) { lines.push_back(line); };
  const auto built = m_builder.build(req);
  ASSERT_EQ(built.status, StepStatus::k_built);
  EXPECT_EQ(m_tools.makes, 3);
  EXPECT_EQ(read_file(m_tmp / "wd/targets/toy/src/include/linux/kconfig.h"), "#define K 1\n");
  const bool said = std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("the checkout is not commit") == 0 &&
           l.find("include/linux/kconfig.h: holds blob") != std::string::npos;
  });
  EXPECT_TRUE(said) << join_lines(lines);
}

TEST_F(KernelBuildTest, ATreeThatKeepsChangingStoresNothing) {
  int writes = 0;
  m_tools.during_make = [&](const fs::path& src) {
    put_file(src / "mm/a.c", "int a = " + std::to_string(++writes) + ";\n");
  };
  try {
    m_builder.build(request());
    FAIL() << "stored";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("in 3 builds in a row"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(m_builder.find(m_target, m_commit).has_value());
  EXPECT_TRUE(verify_stored_kernels(m_store, m_tmp / "wd", "").empty());
}

// A kernel stored without the record (an older kseries) is built again,
// never reused, and --verify says why.
TEST_F(KernelBuildTest, AKernelWithoutItsRecordIsNotReused) {
  const auto built = m_builder.build(request());
  ASSERT_TRUE(built.kernel.has_value());
  auto json = nlohmann::json::parse(read_file(built.kernel->dir / "build.json"));
  json.erase("source_check");
  write_file(built.kernel->dir / "build.json", json.dump());
  const auto verified = verify_stored_kernels(m_store, m_tmp / "wd", "toy");
  ASSERT_EQ(verified.size(), 1u);
  ASSERT_FALSE(verified[0].problems.empty());
  EXPECT_NE(verified[0].problems[0].find("no record of the sources"), std::string::npos);
  EXPECT_FALSE(m_builder.find(m_target, m_commit).has_value());
  EXPECT_EQ(m_builder.build(request()).status, StepStatus::k_built);
  EXPECT_EQ(m_tools.makes, 2);
}

// --verify re-checks what is stored: a changed artifact, a source list that
// names another blob, and an index that files the kernel under another tree.
TEST_F(KernelBuildTest, VerifyFindsATamperedStoreEntry) {
  const auto built = m_builder.build(request());
  ASSERT_TRUE(built.kernel.has_value());
  const fs::path dir = built.kernel->dir;
  write_file(dir / "vmlinux", "ELF");  // same size, other bytes
  auto verified = verify_stored_kernels(m_store, m_tmp / "wd", "");
  ASSERT_EQ(verified.size(), 1u);
  ASSERT_EQ(verified[0].problems.size(), 1u);
  EXPECT_NE(verified[0].problems[0].find("vmlinux: its SHA-256 is not the one recorded"),
            std::string::npos)
      << verified[0].problems[0];
  write_file(dir / "vmlinux", "elf");
  const std::string sources = read_file(dir / k_sources_file);
  write_file(dir / k_sources_file,
             sources.substr(0, sources.rfind('\t') + 1) + std::string(40, 'a') + "\n");
  verified = verify_stored_kernels(m_store, m_tmp / "wd", "");
  ASSERT_GE(verified[0].problems.size(), 2u);
  EXPECT_NE(verified[0].problems[0].find("is not the one recorded"), std::string::npos);
  EXPECT_NE(verified[0].problems[1].find("built from mm/a.c blob aaaaaaaaaaaa"), std::string::npos)
      << verified[0].problems[1];
}

}  // namespace
}  // namespace kseries::kernel
