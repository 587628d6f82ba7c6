#include "git/tree_import.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <utime.h>

#include <ctime>

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
  EXPECT_EQ(a.release.kernel, "1.2.3");
  EXPECT_FALSE(a.reused);
  const auto again = import_tarball(first, m_tmp / "linux-demo.tar.gz", m_tmp / "scratch", runner);
  EXPECT_TRUE(again.reused);
  EXPECT_EQ(to_hex(again.commit), to_hex(a.commit));
  EXPECT_FALSE(std::filesystem::exists(m_tmp / "scratch"));
}

TEST(BaseReleaseTest, RendersAndParsesBack) {
  BaseRelease release{"6.12.118", "linux-source-6.12 6.12.118-1~deb12u1",
                      "/usr/src/linux-source-6.12.tar.xz", 151970188, 1764320040};
  const auto back = parse_base_release(render_base_release(release));
  ASSERT_TRUE(back);
  EXPECT_EQ(render_base_release(*back), render_base_release(release));
  EXPECT_EQ(back->describe(), "6.12.118 (Debian linux-source-6.12 6.12.118-1~deb12u1)");
  EXPECT_EQ(parse_base_release("kernel: 1.2.3\n"), std::nullopt);  // no size, no mtime
  EXPECT_EQ(parse_base_release("kernel: 1\ntarball-size: x\ntarball-mtime: 1\n"), std::nullopt);
  EXPECT_EQ(BaseRelease{}.describe(), "unknown version");
}

// dpkg-query as Debian answers it.
class FakeDpkg : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override {
    argvs.push_back(spec.argv);
    ProcessResult result;
    result.exit_code = 0;
    if (spec.argv.at(1) == "-S") {
      result.out = owner;
      result.exit_code = owner.empty() ? 1 : 0;
    } else {
      result.out = version;
    }
    return result;
  }
  std::string owner, version;
  std::vector<std::vector<std::string>> argvs;
};

TEST(DebianPackageTest, AsksDpkgWhoOwnsTheTarballAndItsVersion) {
  if (!find_program("dpkg-query")) {
    GTEST_SKIP() << "no dpkg-query";
  }
  FakeDpkg dpkg;
  dpkg.owner = "linux-source-6.12: /usr/src/linux-source-6.12.tar.xz\n";
  dpkg.version = "6.12.118-1~deb12u1";
  EXPECT_EQ(debian_package_of("/usr/src/linux-source-6.12.tar.xz", dpkg),
            "linux-source-6.12 6.12.118-1~deb12u1");
  ASSERT_EQ(dpkg.argvs.size(), 2u);
  EXPECT_EQ(dpkg.argvs[1].back(), "linux-source-6.12");
  dpkg.owner = "";  // no package owns it
  EXPECT_EQ(debian_package_of("/tmp/linux-7.0.tar.xz", dpkg), "");
  dpkg.owner = "a, b: /usr/src/x.tar.xz\n";  // two own it: not one answer
  EXPECT_EQ(debian_package_of("/usr/src/x.tar.xz", dpkg), "");
}

class TarballReleaseTest : public TreeImportTest {
 protected:
  std::filesystem::path make_tarball(const std::string& sublevel, std::time_t mtime) {
    const auto src = m_tmp / "linux-demo";
    put_file(src / "Makefile",
             "VERSION = 1\nPATCHLEVEL = 2\nSUBLEVEL = " + sublevel + "\nEXTRAVERSION =\n");
    put_file(src / "README", "demo " + sublevel + "\n");
    const auto tarball = m_tmp / "linux-demo.tar.gz";
    ProcessSpec tar;
    tar.argv = {"tar", "-czf", tarball.string(), "-C", m_tmp.path().string(), "linux-demo"};
    EXPECT_TRUE(m_runner.run(tar).ok());
    const struct utimbuf times { mtime, mtime };
    EXPECT_EQ(::utime(tarball.c_str(), &times), 0);
    return tarball;
  }
  SystemProcessRunner m_runner;
};

// The release is stored with the base; a tarball that changed since (a
// point release upgrade of the package) is imported anew, not reused.
TEST_F(TarballReleaseTest, StoresTheReleaseAndReimportsAChangedTarball) {
  Store store(m_tmp / "a.git");
  const auto tarball = make_tarball("2", 1000000000);
  const auto first = import_tarball(store, tarball, m_tmp / "scratch", m_runner);
  EXPECT_EQ(first.release.kernel, "1.2.2");
  EXPECT_EQ(first.release.tarball_mtime, 1000000000);
  EXPECT_EQ(first.release.tarball, tarball.string());
  EXPECT_FALSE(first.replaced);
  const auto stored = read_base_release(store, first.commit);
  ASSERT_TRUE(stored);
  EXPECT_EQ(render_base_release(*stored), render_base_release(first.release));
  EXPECT_EQ(base_release(store, first.commit).kernel, "1.2.2");

  const auto same = import_tarball(store, tarball, m_tmp / "scratch", m_runner);
  EXPECT_TRUE(same.reused);
  EXPECT_EQ(same.release.kernel, "1.2.2");

  make_tarball("3", 1000086400);
  const auto upgraded = import_tarball(store, tarball, m_tmp / "scratch", m_runner);
  EXPECT_FALSE(upgraded.reused);
  EXPECT_EQ(upgraded.release.kernel, "1.2.3");
  ASSERT_TRUE(upgraded.replaced);
  EXPECT_EQ(upgraded.replaced->kernel, "1.2.2");
  EXPECT_NE(to_hex(upgraded.commit), to_hex(first.commit));
  EXPECT_EQ(to_hex(*store.branch_tip("base/linux-demo")), to_hex(upgraded.commit));
}

// A base imported before kseries stored releases: reused while the
// tarball's Makefile names the same release (the release stored then),
// imported anew when it does not.
TEST_F(TarballReleaseTest, AnImportWithoutAStoredReleaseIsCheckedAgainstTheTarball) {
  Store store(m_tmp / "a.git");
  const auto tarball = make_tarball("2", 1000000000);
  const auto first = import_tarball(store, tarball, m_tmp / "scratch", m_runner);
  git(m_tmp.path(),
      {"--git-dir", store.path().string(), "update-ref", "-d", "refs/notes/kseries-base"});
  ASSERT_FALSE(read_base_release(store, first.commit));
  const auto again = import_tarball(store, tarball, m_tmp / "scratch", m_runner);
  EXPECT_TRUE(again.reused);
  EXPECT_EQ(again.release.kernel, "1.2.2");
  EXPECT_TRUE(read_base_release(store, first.commit));

  git(m_tmp.path(),
      {"--git-dir", store.path().string(), "update-ref", "-d", "refs/notes/kseries-base"});
  make_tarball("3", 1000000000);
  const auto upgraded = import_tarball(store, tarball, m_tmp / "scratch", m_runner);
  EXPECT_FALSE(upgraded.reused);
  EXPECT_EQ(upgraded.release.kernel, "1.2.3");
  ASSERT_TRUE(upgraded.replaced);
  EXPECT_EQ(upgraded.replaced->kernel, "1.2.2");
}

}  // namespace
}  // namespace kseries::git
