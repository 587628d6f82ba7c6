#include "git/apply.h"

#include <gtest/gtest.h>

#include "core/text.h"
#include "git/libgit2.h"
#include "series/series.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

using testing::git;
using testing::put_file;

class ApplyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_repo = m_tmp / "toy";
    std::filesystem::create_directories(m_repo);
    git(m_repo, {"init", "-q", "-b", "main"});
    std::string lines;
    for (int i = 1; i <= 30; ++i) {
      lines += "line " + std::to_string(i) + "\n";
    }
    put_file(m_repo / "file.txt", lines);
    put_file(m_repo / "old_name.txt", "to be renamed\nsecond line\nthird line\n");
    put_file(m_repo / "doomed.txt", "to be deleted\n");
    git(m_repo, {"add", "-A"});
    git(m_repo, {"commit", "-q", "-m", "base"});
    m_base = git(m_repo, {"rev-parse", "HEAD"});
  }

  // Commits on top of the base and exports them with format-patch into a
  // series directory; returns the original commit ids.
  std::vector<std::string> make_series(const std::filesystem::path& out) {
    std::string lines = git(m_repo, {"show", "HEAD:file.txt"}) + "\n";
    lines.replace(lines.find("line 10\n"), 8, "line ten\n");
    put_file(m_repo / "file.txt", lines);
    put_file(m_repo / "new_file.txt", "brand new\n");
    git(m_repo, {"add", "-A"});
    git(m_repo, {"-c", "user.name=x", "commit", "-q", "-m",
                 "demo: change line ten\n\nBody of the first.\n\nSigned-off-by: A <a@x>"});
    git(m_repo, {"mv", "old_name.txt", "new_name.txt"});
    git(m_repo, {"rm", "-q", "doomed.txt"});
    git(m_repo, {"commit", "-q", "-m", "demo: rename and delete"});
    git(m_repo, {"format-patch", "-q", "-o", out.string(), "--cover-letter", "-v2",
                 "--base=" + m_base, m_base + "..HEAD"});
    std::string listing;
    for (const auto& name : {"v2-0000-cover-letter.patch", "v2-0001-demo-change-line-ten.patch",
                             "v2-0002-demo-rename-and-delete.patch"}) {
      listing += std::string(name) + "\n";
    }
    put_file(out / "series", listing);
    return {git(m_repo, {"rev-parse", "HEAD~1"}), git(m_repo, {"rev-parse", "HEAD"})};
  }

  std::string show(const std::string& format, const std::string& rev, Store& store) {
    return git(m_tmp.path(),
               {"--git-dir", store.path().string(), "log", "-1", "--format=" + format, rev});
  }

  Session m_session;
  testing::TempDir m_tmp;
  std::filesystem::path m_repo;
  std::string m_base;
};

TEST_F(ApplyTest, ReproducesTheOriginalCommits) {
  const auto originals = make_series(m_tmp / "series");
  const Series series = load_series(m_tmp / "series");
  Store store(m_tmp / "store.git");
  ApplyRequest request;
  request.base = store.borrow_commit(m_repo, m_base);
  request.base_label = "toy";
  request.chain = {&series};
  const auto result = apply_chain(store, request);
  ASSERT_TRUE(result.complete) << result.outcomes.back().failure;
  EXPECT_TRUE(result.warnings.empty());
  ASSERT_EQ(result.outcomes.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const std::string ours = to_hex(result.outcomes[i].commit);
    // Same tree, same author, same author date, same message.
    for (const char* format : {"%T", "%an <%ae>", "%ad", "%B"}) {
      EXPECT_EQ(show(format, ours, store),
                git(m_repo, {"log", "-1", std::string("--format=") + format, originals[i]}))
          << format;
    }
  }
}

TEST_F(ApplyTest, FailingHunkReportsFileHunkAndOffset) {
  make_series(m_tmp / "series");
  // A tree that differs from the series' base: three lines inserted on top.
  git(m_repo, {"checkout", "-q", "-b", "moved", m_base});
  put_file(m_repo / "file.txt",
           "extra 1\nextra 2\nextra 3\n" + git(m_repo, {"show", m_base + ":file.txt"}) + "\n");
  git(m_repo, {"commit", "-q", "-am", "move things"});
  const Series series = load_series(m_tmp / "series");
  Store store(m_tmp / "store.git");
  ApplyRequest request;
  request.base = store.borrow_commit(m_repo, "moved");
  request.base_label = "moved";
  request.chain = {&series};
  const auto result = apply_chain(store, request);
  EXPECT_FALSE(result.complete);
  ASSERT_EQ(result.outcomes.size(), 2u);
  EXPECT_EQ(result.outcomes[0].status, PatchStatus::k_failed);
  EXPECT_EQ(result.outcomes[1].status, PatchStatus::k_not_attempted);
  const std::string& failure = result.outcomes[0].failure;
  EXPECT_NE(failure.find("libgit2:"), std::string::npos) << failure;
  EXPECT_NE(failure.find("file.txt: hunk 1 '@@ -7,7 +7,7 @@"), std::string::npos) << failure;
  EXPECT_NE(failure.find("context found 3 lines below (at line 10)"), std::string::npos) << failure;
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_NE(result.warnings[0].find("base-commit mismatch"), std::string::npos);
}

TEST_F(ApplyTest, NonAsciiAuthorRoundTrips) {
  put_file(m_repo / "file.txt", "changed\n");
  git(m_repo, {"add", "-A"});
  git(m_repo, {"-c", "i18n.commitEncoding=UTF-8", "commit", "-q", "--author",
               "J\xC3\xB6rg R\xC3\xB6"
               "del <joro@8bytes.org>",
               "-m", "demo: umlauts"});
  git(m_repo, {"format-patch", "-q", "-1", "-o", (m_tmp / "one").string()});
  const Series series = load_series(m_tmp / "one");
  Store store(m_tmp / "store.git");
  ApplyRequest request;
  request.base = store.borrow_commit(m_repo, m_base);
  request.chain = {&series};
  const auto result = apply_chain(store, request);
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(show("%an", to_hex(*result.tip), store),
            "J\xC3\xB6rg R\xC3\xB6"
            "del");
}

TEST_F(ApplyTest, BorrowingLeavesTheUsersRepositoryUntouched) {
  make_series(m_tmp / "series");
  git(m_repo, {"checkout", "-q", "-b", "work", m_base});
  put_file(m_repo / "file.txt", "uncommitted edit\n");
  const std::string refs_before = git(m_repo, {"show-ref"});
  const std::string status_before = git(m_repo, {"status", "--porcelain"});
  const std::string head_before = git(m_repo, {"symbolic-ref", "HEAD"});
  const Series series = load_series(m_tmp / "series");
  Store store(m_tmp / "store.git");
  ApplyRequest request;
  request.base = store.borrow_commit(m_repo, m_base);
  request.chain = {&series};
  const auto result = apply_chain(store, request);
  ASSERT_TRUE(result.complete);
  store.set_branch("series/demo", *result.tip, std::nullopt, "test");
  EXPECT_EQ(git(m_repo, {"show-ref"}), refs_before);
  EXPECT_EQ(git(m_repo, {"status", "--porcelain"}), status_before);
  EXPECT_EQ(git(m_repo, {"symbolic-ref", "HEAD"}), head_before);
  // The applied commits live in the store only.
  EXPECT_THROW(git(m_repo, {"cat-file", "-e", to_hex(*result.tip)}), std::runtime_error);
}

}  // namespace
}  // namespace kseries::git
