#include "git/tree_import.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "git/libgit2.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

using testing::git;
using testing::put_file;

class TreeImportTest : public ::testing::Test {
 protected:
  Session m_session;
  testing::TempDir m_tmp;
};

// The tree kseries writes must be the one `git add -A -f` writes, so that a
// base imported by kseries and one imported by hand have the same id.
TEST_F(TreeImportTest, MatchesGitAddForce) {
  const auto src = m_tmp / "src";
  put_file(src / "Makefile", "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\nEXTRAVERSION =\n");
  put_file(src / ".gitignore", "/*\n");  // Debian's tree ignores its own top level
  put_file(src / "scripts" / "run.sh", "#!/bin/sh\n");
  ::chmod((src / "scripts" / "run.sh").c_str(), 0755);
  put_file(src / "mm" / "mm_init.c", "int x;\n");
  std::filesystem::create_directories(src / "empty" / "deeper");
  std::filesystem::create_symlink("../mm/mm_init.c", src / "scripts" / "link");

  Store store(m_tmp / "store.git");
  const git_oid ours = write_tree_from_directory(store.repo(), src);

  git(src, {"init", "-q"});
  git(src, {"add", "-A", "-f"});
  const std::string theirs = git(src, {"write-tree"});
  EXPECT_EQ(to_hex(ours), theirs);
}

TEST_F(TreeImportTest, ReadsTheKernelVersion) {
  EXPECT_EQ(kernel_version_from_makefile(
                "# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\nEXTRAVERSION =\nNAME = x\n"),
            "6.12.117");
  EXPECT_EQ(kernel_version_from_makefile("VERSION = 7\nPATCHLEVEL = 2\nSUBLEVEL = 0\n"
                                         "EXTRAVERSION = -rc1\n"),
            "7.2.0-rc1");
  // A 100 KB word killed the old std::regex reader.
  const std::string word(100 * 1024, '9');
  EXPECT_EQ(kernel_version_from_makefile("VERSION = " + word + "\nPATCHLEVEL\t=1\nSUBLEVEL =\n"),
            word + ".1.");
  EXPECT_EQ(kernel_version_from_makefile("VERSIONS = 1\nVERSION: 2\n"), "");
}

TEST_F(TreeImportTest, TarballImportIsReproducibleAndReused) {
  const auto src = m_tmp / "linux-demo";
  put_file(src / "Makefile", "VERSION = 1\nPATCHLEVEL = 2\nSUBLEVEL = 3\nEXTRAVERSION =\n");
  put_file(src / "README", "demo\n");
  SystemProcessRunner runner;
  ProcessSpec tar;
  tar.argv = {
      "tar",       "-czf", (m_tmp / "linux-demo.tar.gz").string(), "-C", m_tmp.path().string(),
      "linux-demo"};
  ASSERT_TRUE(runner.run(tar).ok());

  Store first(m_tmp / "a.git");
  Store second(m_tmp / "b.git");
  const auto a = import_tarball(first, m_tmp / "linux-demo.tar.gz", m_tmp / "scratch", runner);
  const auto b = import_tarball(second, m_tmp / "linux-demo.tar.gz", m_tmp / "scratch", runner);
  EXPECT_EQ(to_hex(a.commit), to_hex(b.commit));
  EXPECT_EQ(a.branch, "base/linux-demo");
  EXPECT_EQ(a.version, "1.2.3");
  EXPECT_FALSE(a.reused);
  const auto again = import_tarball(first, m_tmp / "linux-demo.tar.gz", m_tmp / "scratch", runner);
  EXPECT_TRUE(again.reused);
  EXPECT_EQ(to_hex(again.commit), to_hex(a.commit));
  EXPECT_FALSE(std::filesystem::exists(m_tmp / "scratch"));
}

}  // namespace
}  // namespace kseries::git
