#include "git/apply.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "series/series.h"
#include "sys/files.h"
#include "testing/patch_text.h"
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

  // A request to apply CHAIN onto REV of the toy repository, labelled LABEL.
  ApplyRequest onto(Store& store, const std::string& rev, const std::string& label,
                    std::vector<const Series*> chain) {
    ApplyRequest request;
    request.base = store.borrow_commit(m_repo, rev);
    request.base_label = label;
    request.chain = std::move(chain);
    return request;
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
  ApplyRequest request = onto(store, m_base, "toy", {&series});
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
  ApplyRequest request = onto(store, "moved", "moved", {&series});
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

// A series applied on top of another (its depends) may name as its
// base-commit the tree's base (b4: with prerequisite-patch-id lines) or the
// tip it goes onto; anything else is a mismatch, a warning.
TEST_F(ApplyTest, ADependentSeriesMayNameTheTipItGoesOnto) {
  make_series(m_tmp / "first");
  const Series first = load_series(m_tmp / "first");
  Store store(m_tmp / "store.git");
  ApplyRequest request = onto(store, m_base, "toy", {&first});
  const auto alone = apply_chain(store, request);
  ASSERT_TRUE(alone.complete);
  ASSERT_TRUE(alone.tip);
  const std::string tip = to_hex(*alone.tip);

  put_file(m_repo / "new_file.txt", "brand new\nand more\n");
  git(m_repo, {"commit", "-q", "-am", "demo: more"});
  git(m_repo, {"format-patch", "-q", "-o", (m_tmp / "second").string(), "--base=" + m_base,
               "HEAD~1..HEAD"});
  put_file(m_tmp / "second" / "series", "0001-demo-more.patch\n");
  const std::filesystem::path patch = m_tmp / "second" / "0001-demo-more.patch";
  const std::string text = read_file(patch);
  const auto names = [&](const std::string& base_commit) {
    std::string named = text;
    named.replace(named.find("base-commit: " + m_base), 13 + m_base.size(),
                  "base-commit: " + base_commit);
    put_file(patch, named);
    const Series second = load_series(m_tmp / "second");
    request.chain = {&first, &second};
    const auto result = apply_chain(store, request);
    EXPECT_TRUE(result.complete);
    return result.warnings;
  };
  EXPECT_TRUE(names(tip).empty());     // the tip it goes onto
  EXPECT_TRUE(names(m_base).empty());  // the tree's base
  const auto other = names(std::string(40, '1'));
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(other[0].find("base-commit mismatch: second says base-commit 1111"), std::string::npos)
      << other[0];
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

// Git leaves names with spaces unquoted ("diff --git a/foo bar b/foo bar");
// libgit2 could not split that line: the add failed and its diagnosis
// crashed (SIGSEGV in git_tree_entry_bypath(NULL)). Each file must land as
// git am lands it: added, changed, renamed.
TEST_F(ApplyTest, NamesWithSpacesApplyAsGitAmAppliesThem) {
  put_file(m_repo / "foo bar", "hello\n");
  put_file(m_repo / "old name.txt", "moved\n");
  git(m_repo, {"add", "-A"});
  git(m_repo, {"commit", "-q", "-m", "demo: add foo bar"});
  put_file(m_repo / "foo bar", "hello\nworld\n");
  std::filesystem::create_directories(m_repo / "new b");
  git(m_repo, {"mv", "old name.txt", "new b/name.txt"});
  git(m_repo, {"commit", "-q", "-am", "demo: change foo bar, rename"});
  const std::string tip_tree = git(m_repo, {"rev-parse", "HEAD^{tree}"});
  git(m_repo, {"format-patch", "-q", "-o", (m_tmp / "spaces").string(), m_base + "..HEAD"});
  const Series series = load_series(m_tmp / "spaces");
  Store store(m_tmp / "store.git");
  ApplyRequest request;
  request.base = store.borrow_commit(m_repo, m_base);
  request.chain = {&series};
  const auto result = apply_chain(store, request);
  ASSERT_TRUE(result.complete) << result.outcomes.back().failure;
  EXPECT_EQ(show("%T", to_hex(*result.tip), store), tip_tree);
}

// A binary hunk whose base85 decodes but does not inflate was exit 2 "not
// the patch's fault" (libgit2's zlib error read as the object store's).
TEST_F(ApplyTest, ACorruptBinaryHunkIsThePatchsFailure) {
  std::string bytes;
  for (int i = 0; i < 300; ++i) {
    bytes += static_cast<char>((i * 151 + 7) % 256);
  }
  put_file(m_repo / "bin.dat", bytes);
  git(m_repo, {"add", "-A"});
  git(m_repo, {"commit", "-q", "-m", "demo: add a binary"});
  git(m_repo, {"format-patch", "-q", "--binary", "-1", "-o", (m_tmp / "bin").string()});
  const auto file = std::filesystem::directory_iterator(m_tmp / "bin")->path();
  const std::string original = read_file(file);
  const auto lines = split_lines(original);
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line(lines[i]);
    if (i >= 2 && starts_with(lines[i - 2], "literal ")) {
      for (std::size_t c = 1; c < line.size(); ++c) {
        line[c] = line[c] == '0' ? '1' : '0';  // still base85, no longer zlib
      }
    }
    text += line + "\n";
  }
  put_file(file, text);
  const Series series = load_series(m_tmp / "bin");
  Store store(m_tmp / "store.git");
  ApplyRequest request;
  request.base = store.borrow_commit(m_repo, m_base);
  request.chain = {&series};
  const auto result = apply_chain(store, request);
  EXPECT_FALSE(result.complete);
  ASSERT_EQ(result.outcomes.size(), 1u);
  EXPECT_EQ(result.outcomes[0].status, PatchStatus::k_failed);
  EXPECT_NE(result.outcomes[0].failure.find("incorrect data check"), std::string::npos)
      << result.outcomes[0].failure;
}

// What git am applies, or a refusal with the reason (issue 32, class 6).
class GitAmParityTest : public ApplyTest {
 protected:
  // One patch mail with DIFF in its own series directory.
  Series series_of(const std::string& name, const std::string& diff,
                   const std::string& headers = "") {
    testing::PatchText patch;
    patch.diff = diff;
    std::string text = patch.render();
    if (!headers.empty()) {
      text.insert(text.find("Subject: "), headers);
    }
    put_file(m_tmp / name / "0001-demo.patch", text);
    put_file(m_tmp / name / "series", "0001-demo.patch\n");
    return load_series(m_tmp / name);
  }
  ApplyResult apply(const Series& series, Store& store) {
    ApplyRequest request;
    request.base = store.borrow_commit(m_repo, "HEAD");
    request.chain = {&series};
    return apply_chain(store, request);
  }
  std::string error_of(const std::string& name, const std::string& diff,
                       const std::string& headers = "") {
    try {
      series_of(name, diff, headers);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(GitAmParityTest, ADiffWithoutModeLinesKeepsTheFilesMode) {
  put_file(m_repo / "run.sh", "echo a\n");
  std::filesystem::permissions(m_repo / "run.sh", std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  std::filesystem::create_symlink("file.txt", m_repo / "link");
  git(m_repo, {"add", "-A"});
  git(m_repo, {"commit", "-q", "-m", "x and link"});
  const Series series = series_of("mode",
                                  "diff --git a/run.sh b/run.sh\n--- a/run.sh\n+++ b/run.sh\n"
                                  "@@ -1 +1 @@\n-echo a\n+echo b\n");
  Store store(m_tmp / "store.git");
  const auto result = apply(series, store);
  ASSERT_TRUE(result.complete) << result.outcomes.back().failure;
  EXPECT_EQ(git(m_tmp.path(),
                {"--git-dir", store.path().string(), "ls-tree", to_hex(*result.tip), "run.sh"})
                .substr(0, 6),
            "100755");
  const Series link = series_of("link",
                                "diff --git a/link b/link\n--- a/link\n+++ b/link\n@@ -1 +1 @@\n"
                                "-file.txt\n\\ No newline at end of file\n+/etc/passwd\n"
                                "\\ No newline at end of file\n");
  const auto refused = apply(link, store);
  EXPECT_FALSE(refused.complete);
  EXPECT_NE(refused.outcomes[0].failure.find("refuses to change the symlink 'link'"),
            std::string::npos)
      << refused.outcomes[0].failure;
}

TEST_F(GitAmParityTest, ANewFileOverAnExistingPathFails) {
  const Series series = series_of("exists",
                                  "diff --git a/file.txt b/file.txt\nnew file mode 100644\n"
                                  "index 0000000..1111111\n--- /dev/null\n+++ b/file.txt\n"
                                  "@@ -0,0 +1 @@\n+prepended\n");
  Store store(m_tmp / "store.git");
  const auto result = apply(series, store);
  EXPECT_FALSE(result.complete);
  EXPECT_NE(
      result.outcomes[0].failure.find("file.txt: the patch creates it, but it already exists"),
      std::string::npos)
      << result.outcomes[0].failure;
}

// git apply reads a hunk's counted lines and no more: a line after them
// that looks like a hunk line is not the diff (a signature, a footer).
TEST_F(GitAmParityTest, LinesPastAHunksCountAreNotTheDiff) {
  const Series series = series_of("long",
                                  "diff --git a/file.txt b/file.txt\n--- a/file.txt\n+++ "
                                  "b/file.txt\n@@ -1 +1 @@\n-line 1\n+line one\n+one more\n");
  ASSERT_EQ(series.patches.size(), 1u);
  EXPECT_NE(series.patches[0].diff.find("+line one"), std::string::npos);
  EXPECT_EQ(series.patches[0].diff.find("+one more"), std::string::npos) << series.patches[0].diff;
}

// MIME is decoded (GMime): a multipart mail is read part by part, and one
// whose boundary never comes holds no part, so no diff (series/mime.cc's
// tests decode real parts).
TEST_F(GitAmParityTest, AMultipartMailWithoutItsPartsHasNoDiff) {
  const std::string message =
      error_of("mime",
               "diff --git a/file.txt b/file.txt\n--- a/file.txt\n+++ b/file.txt\n"
               "@@ -1 +1 @@\n-line 1\n+line =3D one\n",
               "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b\"\n");
  EXPECT_NE(message.find("has no diff"), std::string::npos) << message;
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
