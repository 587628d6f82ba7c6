#include "git/diff_check.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries::git {
namespace {

// The refusal for `text` as libgit2 parses it ("" when accepted).
std::string refusal(const std::string& text) {
  Session session;
  git_diff* raw = nullptr;
  if (git_diff_from_buffer(&raw, text.data(), text.size()) < 0) {
    return "does not parse: " + last_error_message();
  }
  DiffPtr diff(raw);
  try {
    check_parsed_diff(diff.get(), "patch 1/1 'x'");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string k_new_link_tail =
    "index 0000000..3594e94\n"
    "--- /dev/null\n"
    "+++ b/link\n"
    "@@ -0,0 +1 @@\n"
    "+/etc/passwd\n"
    "\\ No newline at end of file\n";

TEST(DiffCheckTest, AcceptsOrdinaryChangesRenamesAndDeletions) {
  EXPECT_EQ(refusal("diff --git a/mm/x.c b/mm/x.c\n"
                    "index 1111111..2222222 100644\n"
                    "--- a/mm/x.c\n"
                    "+++ b/mm/x.c\n"
                    "@@ -1 +1 @@\n"
                    "-a\n"
                    "+b\n"
                    "diff --git a/tools/run.sh b/tools/run.sh\n"
                    "new file mode 100755\n"
                    "index 0000000..3333333\n"
                    "--- /dev/null\n"
                    "+++ b/tools/run.sh\n"
                    "@@ -0,0 +1 @@\n"
                    "+echo\n"
                    "diff --git a/old.txt b/new.txt\n"
                    "similarity index 100%\n"
                    "rename from old.txt\n"
                    "rename to new.txt\n"
                    "diff --git a/gone.txt b/gone.txt\n"
                    "deleted file mode 100644\n"
                    "index 4444444..0000000\n"
                    "--- a/gone.txt\n"
                    "+++ /dev/null\n"
                    "@@ -1 +0,0 @@\n"
                    "-bye\n"),
            "");
}

TEST(DiffCheckTest, RefusesSymlinkModesInEverySpellingLibgit2Reads) {
  for (const std::string mode_line : {"new file mode 120000\n", "new file mode 0120000\n",
                                      "new file mode 120000 \n", "new file mode 00120000\n"}) {
    const auto error = refusal("diff --git a/link b/link\n" + mode_line + k_new_link_tail);
    EXPECT_TRUE(has(error, "patch 1/1 'x': refuses a symlink (mode 120000) on 'link'")) << error;
  }
}

TEST(DiffCheckTest, RefusesTheModeOfAnIndexLine) {
  for (const std::string mode : {"120000", "0120000", "160000", "040000", "100664"}) {
    const auto error = refusal(
        "diff --git a/f b/f\n"
        "index 1111111..2222222 " +
        mode +
        "\n"
        "--- a/f\n"
        "+++ b/f\n"
        "@@ -1 +1 @@\n"
        "-a\n"
        "+b\n");
    EXPECT_TRUE(has(error, "refuses ")) << mode << ": " << error;
    EXPECT_TRUE(has(error, " on 'f'")) << mode << ": " << error;
  }
  EXPECT_TRUE(has(refusal("diff --git a/s b/s\nindex 1111111..2222222 0160000\n--- a/s\n+++ b/s\n"
                          "@@ -1 +1 @@\n-Subproject commit 1\n+Subproject commit 2\n"),
                  "a submodule (mode 160000) on 's'"));
}

// Found by fuzz/diff_parsed in a 600 s run: a new file whose index line
// carries a mode gives the /dev/null side (no path) that mode; the check
// skipped a side without a path, modes included.
TEST(DiffCheckTest, RefusesAnOddModeOnTheSideWithoutAPath) {
  // libgit2 reads this as a new file 'x/' whose old side has no path and
  // mode 050322 (the fuzzer's input, its first deltas left out).
  const auto error = refusal(
      "diff --git a/inclu-----BEGIN CERTIF-.h b/include/asm-generic/struct_page_inti.h\n"
      "new file mode 100644\n"
      "index 000000000..f58d290e 050322\n"
      "--- eull\n"
      "+++ b/x/\n"
      "d");
  EXPECT_TRUE(has(error, "refuses mode 050322, which is not a regular file")) << error;
}

TEST(DiffCheckTest, RefusesAChangeToASymlink) {
  const auto error = refusal("diff --git a/f b/f\nold mode 100644\nnew mode 0120000\n");
  EXPECT_TRUE(has(error, "refuses a symlink (mode 120000) on 'f' (new mode")) << error;
}

TEST(DiffCheckTest, RefusesRenameAndCopyTargetsInEverySpelling) {
  for (const std::string header : {"rename from old.txt\nrename to /tmp/abs.txt\n",
                                   "rename old old.txt\nrename new /tmp/abs.txt\n",
                                   "copy from old.txt\ncopy to /tmp/abs.txt\n"}) {
    const auto error = refusal("diff --git a/old.txt b/old.txt\nsimilarity index 100%\n" + header);
    EXPECT_TRUE(has(error, "refuses to touch an absolute path: '/tmp/abs.txt' (new path")) << error;
  }
  auto error =
      refusal("diff --git a/x b/x\nsimilarity index 100%\nrename old x\nrename new a/../../y\n");
  EXPECT_TRUE(has(error, "a '..' component: 'a/../../y'")) << error;
  error = refusal(
      "diff --git a/x b/x\nsimilarity index 100%\ncopy from x\ncopy to "
      "sub/.Git/hooks/pre-commit\n");
  EXPECT_TRUE(has(error, "a path inside .git: 'sub/.Git/hooks/pre-commit'")) << error;
}

TEST(DiffCheckTest, RefusesANulByteInAHunkLine) {
  using namespace std::string_literals;  // the literal holds a NUL
  const std::string diff(
      "diff --git a/f b/f\nindex 1111111..2222222 100644\n--- a/f\n+++ b/f\n"
      "@@ -1,2 +1,2 @@\n a\n-b\n+b\0c\n"s);
  const auto error = refusal(diff);
  EXPECT_TRUE(has(error, "patch 1/1 'x': refuses a NUL byte in hunk 1 of 'f'")) << error;
}

TEST(DiffCheckTest, ADotGitPrefixIsNotTheGitDirectory) {
  EXPECT_EQ(refusal("diff --git a/.gitignore b/.gitignore\nindex 1111111..2222222 100644\n"
                    "--- a/.gitignore\n+++ b/.gitignore\n@@ -1 +1 @@\n-a\n+b\n"),
            "");
}

}  // namespace
}  // namespace kseries::git
