#include "git/point_release.h"

#include <gtest/gtest.h>

#include "git/apply.h"
#include "git/libgit2.h"
#include "series/series.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

using testing::git;
using testing::put_file;

TEST(VerifiedReleaseTest, ReadsTheFirstVerifiedOnLine) {
  EXPECT_EQ(verified_release_in("# v10\n\nVerified on: 6.12.117 (Debian's ...).\n"), "6.12.117");
  EXPECT_EQ(verified_release_in("Verified on: 6.12.117.\nVerified on: 6.12.118\n"), "6.12.117");
  EXPECT_EQ(verified_release_in("  Verified on: 7.2.0-rc1, with x\n"), "7.2.0-rc1");
  EXPECT_EQ(verified_release_in("verified on 6.12.117\nVerified on:\n"), std::nullopt);
  EXPECT_EQ(verified_release_in(""), std::nullopt);
}

// A toy kernel at two point releases: 1.2.2, where the series was made, and
// 1.2.3, where it is applied; mm.c changed between them, util.c did not.
class PointReleaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_repo = m_tmp / "toy";
    std::filesystem::create_directories(m_repo);
    git(m_repo, {"init", "-q", "-b", "main"});
    put_makefile("2");
    std::string mm;
    for (int i = 1; i <= 20; ++i) {
      mm += "mm line " + std::to_string(i) + "\n";
    }
    put_file(m_repo / "mm.c", mm);
    put_file(m_repo / "util.c", "util 1\nutil 2\nutil 3\n");
    git(m_repo, {"add", "-A"});
    git(m_repo, {"commit", "-q", "-m", "1.2.2"});
    const std::string old_release = git(m_repo, {"rev-parse", "HEAD"});
    // The series, made on 1.2.2: it changes mm.c and util.c, adds new.c.
    git(m_repo, {"checkout", "-q", "-b", "series"});
    put_file(m_repo / "mm.c", "mm line 0\n" + mm);
    put_file(m_repo / "util.c", "util 1\nutil two\nutil 3\n");
    put_file(m_repo / "new.c", "new\n");
    git(m_repo, {"add", "-A"});
    git(m_repo, {"commit", "-q", "-m", "demo: change mm and util\n\nSigned-off-by: A <a@x>"});
    m_series = m_tmp / "series";
    git(m_repo, {"format-patch", "-q", "-o", m_series.string(), old_release + "..HEAD"});
    put_file(m_series / "series", "0001-demo-change-mm-and-util.patch\n");
    // 1.2.3: mm.c changed at its end (the series' hunk lands unchanged).
    git(m_repo, {"checkout", "-q", "main"});
    put_makefile("3");
    put_file(m_repo / "mm.c", mm + "mm line 21\n");
    git(m_repo, {"commit", "-q", "-am", "1.2.3"});
    m_base = git(m_repo, {"rev-parse", "HEAD"});
  }

  void put_makefile(const std::string& sublevel) {
    put_file(m_repo / "Makefile",
             "VERSION = 1\nPATCHLEVEL = 2\nSUBLEVEL = " + sublevel + "\nEXTRAVERSION =\n");
  }

  Session m_session;
  testing::TempDir m_tmp;
  std::filesystem::path m_repo, m_series;
  std::string m_base;
};

TEST_F(PointReleaseTest, NamesTheChangedFilesThatDifferOnAnotherRelease) {
  put_file(m_series / "README.md", "# demo\n\nVerified on: 1.2.2 (the toy).\n");
  const Series series = load_series(m_series);
  Store store(m_tmp / "store.git");
  const git_oid base = store.borrow_commit(m_repo, m_base);
  const auto drifts = release_drifts(store, base, {&series});
  ASSERT_EQ(drifts.size(), 1u);
  EXPECT_EQ(drifts[0].verified, "1.2.2");
  EXPECT_EQ(drifts[0].base, "1.2.3");
  // new.c did not exist before the series: not the release's.
  EXPECT_EQ(drifts[0].touched, (std::vector<std::string>{"mm.c", "util.c"}));
  EXPECT_EQ(drifts[0].differ, std::vector<std::string>{"mm.c"});
  EXPECT_EQ(drifts[0].text(),
            "point release: " + series.name +
                " was verified on 1.2.2, the base is 1.2.3; 1 of the 2 file(s) it changes differs "
                "from the one it was made against (a hunk there may apply at an offset or "
                "conflict): mm.c");

  // The apply says it too, beside its other warnings; the series applies.
  ApplyRequest request;
  request.base = base;
  request.base_label = "toy 1.2.3";
  request.chain = {&series};
  const auto applied = apply_chain(store, request);
  EXPECT_TRUE(applied.complete);
  ASSERT_FALSE(applied.warnings.empty());
  EXPECT_EQ(applied.warnings.back(), drifts[0].text());
}

TEST_F(PointReleaseTest, SilentOnTheReleaseItWasVerifiedOnOrWithoutAClaim) {
  Store store(m_tmp / "store.git");
  const git_oid base = store.borrow_commit(m_repo, m_base);
  {
    const Series series = load_series(m_series);  // no README
    EXPECT_TRUE(release_drifts(store, base, {&series}).empty());
  }
  put_file(m_series / "README.md", "Verified on: 1.2.3\n");
  const Series series = load_series(m_series);
  EXPECT_TRUE(release_drifts(store, base, {&series}).empty());
}

TEST_F(PointReleaseTest, NoneDifferWhenOnlyOtherFilesChanged) {
  put_file(m_series / "README.md", "Verified on: 1.2.1\n");
  const Series series = load_series(m_series);
  Store store(m_tmp / "store.git");
  // At 1.2.2 itself (which says 1.2.2, not 1.2.1): nothing the series
  // changes differs.
  const git_oid base = store.borrow_commit(m_repo, "main~1");
  const auto drifts = release_drifts(store, base, {&series});
  ASSERT_EQ(drifts.size(), 1u);
  EXPECT_EQ(drifts[0].base, "1.2.2");
  EXPECT_TRUE(drifts[0].differ.empty());
  EXPECT_NE(drifts[0].text().find("none of the 2 file(s) it changes differs"), std::string::npos);
}

}  // namespace
}  // namespace kseries::git
