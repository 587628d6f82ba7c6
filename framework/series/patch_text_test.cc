#include "series/patch_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/text.h"

namespace kseries {
namespace {

// The diff read from `tail` (the patch part of a mail), joined.
std::string diff_of(const std::string& tail, PatchText* out = nullptr) {
  const auto lines = split_lines(tail);
  PatchText text = read_patch_text(lines, 10, "t.patch");
  const std::string joined = join_lines(text.diff_lines);
  if (out != nullptr) {
    *out = std::move(text);
  }
  return joined;
}

std::string refusal(const std::string& tail) {
  try {
    diff_of(tail);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string k_diff =
    "diff --git a/f b/f\nindex 1111111..2222222 100644\n--- a/f\n+++ b/f\n"
    "@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
const std::string k_signature = "-- \n2.39.5\n\n";

TEST(PatchTextTest, EndsAtTheSignatureAfterTheLastHunk) {
  EXPECT_EQ(diff_of(k_diff + k_signature), k_diff);
  EXPECT_EQ(diff_of(k_diff + "base-commit: 1234\n"), k_diff);
}

// Real mail (nvdimm@lists.linux.dev): a "--" signature without its space
// right after the last hunk, and b4's footer ("---", base-commit:,
// change-id:) after the diff, were read as hunk lines and refused.
TEST(PatchTextTest, ASignatureWithoutItsSpaceAndB4sFooterAreNotTheDiff) {
  PatchText text;
  EXPECT_EQ(diff_of(k_diff + "--\n2.43.0\n", &text), k_diff);
  EXPECT_TRUE(text.notes.empty());
  const std::string footer =
      "---\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n"
      "change-id: 20260101-topic-0123456789ab\n\nBest regards,\n--  \nA Person <a@x>\n";
  const std::string mail = k_diff + footer;  // text.outside views it
  EXPECT_EQ(diff_of(mail, &text), k_diff);
  ASSERT_EQ(text.outside.size(), 7u);
  EXPECT_EQ(text.outside[1], "base-commit: 0123456789abcdef0123456789abcdef01234567");
}

TEST(PatchTextTest, AnEmptyNewFileEndsTheDiff) {
  const std::string empty_file =
      "diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000..e69de29\n";
  PatchText text;
  EXPECT_EQ(diff_of(k_diff + empty_file + "---\nbase-commit: 1234\n", &text), k_diff + empty_file);
  EXPECT_TRUE(text.ends_without_hunk);
  EXPECT_EQ(diff_of(empty_file + k_diff + k_signature, &text), empty_file + k_diff);
  EXPECT_FALSE(text.ends_without_hunk);
  EXPECT_EQ(diff_of(empty_file + k_signature), empty_file);
  const std::string rename =
      "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n";
  EXPECT_EQ(diff_of(rename + k_signature), rename);
}

TEST(PatchTextTest, AHunkLineRemovingDashSpaceIsNotTheSignature) {
  const std::string diff =
      "diff --git a/notes.txt b/notes.txt\nindex 1111111..2222222 100644\n"
      "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,2 @@\n a\n-- \n b\n";
  EXPECT_EQ(diff_of(diff + k_signature), diff);
  const std::string two =
      "diff --git a/n b/n\n--- a/n\n+++ b/n\n@@ -1,2 +1 @@\n a\n-- \n"
      "diff --git a/m b/m\n--- a/m\n+++ b/m\n@@ -1 +1 @@\n-- \n+x\n";
  EXPECT_EQ(diff_of(two + k_signature), two);
}

// Real mail (nvdimm: "[PATCH RESEND 08/12] mm: update all remaining
// mmap_prepare users to use vma_flags_t"): the diff's last line was a
// context line a mailer emptied, then "--"; libgit2 read the hunk one line
// short ("invalid patch hunk, expected 13 old lines and 12 new lines").
TEST(PatchTextTest, AnEmptiedContextLineGetsItsSpaceBack) {
  EXPECT_EQ(
      diff_of("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+b\n\n--\n2.52.0\n"),
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+b\n \n");
}

TEST(PatchTextTest, CountsBlankContextAndNoNewlineMarkers) {
  const std::string diff =
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n"
      "\\ No newline at end of file\n";
  EXPECT_EQ(diff_of(diff + k_signature),
            "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n \n-b\n+c\n"
            "\\ No newline at end of file\n");
}

TEST(PatchTextTest, KeepsTheBlankLinesOfABinaryPatch) {
  const std::string diff =
      "diff --git a/zz.bin b/zz.bin\nnew file mode 100644\nindex 0000000..e35f6fa\n"
      "GIT binary patch\nliteral 11\nScmYew%wtF_s$^hfVg>*c^8$<j\n\nliteral 0\nHcmV?d00001\n\n";
  PatchText text;
  EXPECT_EQ(diff_of(diff + k_signature, &text), diff);
  EXPECT_FALSE(text.ends_without_hunk);
  EXPECT_EQ(diff_of(k_diff + diff + k_signature, &text), k_diff + diff);
  EXPECT_FALSE(text.ends_without_hunk);
  EXPECT_EQ(diff_of(diff + k_diff + k_signature, &text), diff + k_diff);
  EXPECT_FALSE(text.ends_without_hunk);
  // The mail ends where the last literal's blank line belongs: it is put back.
  EXPECT_EQ(diff_of(diff.substr(0, diff.size() - 1), &text), diff);
}

TEST(PatchTextTest, TextBetweenFilesIsNotTheDiff) {
  const std::string second =
      "diff --git a/g b/g\nindex 1111111..2222222 100644\n--- a/g\n+++ b/g\n"
      "@@ -1 +1 @@\n-x\n+y\n";
  PatchText text;
  const std::string mail = "notes\n file | 2 +-\n\n" + k_diff + "a remark\n" + second;
  EXPECT_EQ(diff_of(mail, &text), k_diff + second);  // text.outside views mail
  EXPECT_EQ(text.diff_line, 13);
  ASSERT_EQ(text.outside.size(), 4u);
  EXPECT_EQ(text.outside[3], "a remark");
}

TEST(PatchTextTest, UncountedHunkLinesAreNotedAndLeftOut) {
  PatchText text;
  EXPECT_EQ(diff_of(k_diff + "-d\n+e\n" + k_signature, &text), k_diff);
  ASSERT_EQ(text.notes.size(), 1u);
  EXPECT_EQ(text.notes[0],
            "t.patch:18: 2 line(s) after a hunk look like hunk lines but its @@ header does not "
            "count them: not applied (git apply ignores them too)");
}

TEST(PatchTextTest, RefusesWhatGitApplyRefuses) {
  // A hunk cut short by the signature (the mail lost lines).
  EXPECT_NE(refusal("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n-- \n2.1\n")
                .find("t.patch:16: a line inside a hunk that is not a hunk line"),
            std::string::npos);
  EXPECT_NE(refusal("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n")
                .find("t.patch:13: a hunk cut short"),
            std::string::npos);
  // The header counts two context lines of a longer hunk: nothing to apply.
  EXPECT_NE(refusal("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -7,2 +7,2 @@\n a\n b\n-c\n+d\n")
                .find("a hunk that adds and removes nothing"),
            std::string::npos);
  EXPECT_NE(refusal("notes\n@@ -1 +1 @@\n").find("t.patch:11: a hunk header outside"),
            std::string::npos);
  // git apply: "unable to find filename in patch" (-p1: no "f" side is -p0).
  EXPECT_NE(refusal("--- f\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n")
                .find("t.patch:10: a traditional diff whose path has no directory to strip"),
            std::string::npos);
  EXPECT_NE(refusal("--- /dev/null\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n")
                .find("a new file (from /dev/null) with old contents"),
            std::string::npos);
  EXPECT_NE(refusal("diff --git a/f b/f\nindex 1111111..2222222 100644\n" + k_signature)
                .find("a header and nothing to apply"),
            std::string::npos);
  EXPECT_NE(refusal("diff --git a/f b/f\nnew file mode 100644\n--- a/f\n+++ b/f\n"
                    "@@ -1 +1 @@\n-a\n+b\n")
                .find("a new file with old contents"),
            std::string::npos);
  EXPECT_NE(refusal("diff --git a/f b/f\nnew file mode 100644\ndeleted file mode 100644\n")
                .find("inconsistent header lines"),
            std::string::npos);
  EXPECT_NE(refusal("diff --git a/z b/z\nindex 1..2\nGIT binary patch\nliteral 5\n-- \n")
                .find("not base85 data"),
            std::string::npos);
}

// Real mail (nvdimm@lists.linux.dev, Rafael Wysocki's ACPI: NFIT patches):
// "--- a/f" "+++ b/f" without "diff --git" was refused; git am applies it
// as a traditional diff with -p1.
TEST(PatchTextTest, ATraditionalDiffIsReadAsGitApplyReadsIt) {
  PatchText text;
  EXPECT_EQ(
      diff_of("--- a/dir/f.c\t2026-01-01 00:00:00\n+++ b/dir/f.c\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n" +
                  k_signature,
              &text),
      "diff --git a/dir/f.c b/dir/f.c\n--- a/dir/f.c\n+++ b/dir/f.c\n@@ -1,2 +1,2 @@\n a\n-b\n"
      "+c\n");
  EXPECT_EQ(text.diff_line, 10);
  ASSERT_EQ(text.notes.size(), 1u);
  EXPECT_NE(text.notes[0].find("t.patch:10: 'dir/f.c': a diff without 'diff --git' lines"),
            std::string::npos);
  // quilt's names: the new one, -p1; a new and a deleted file.
  EXPECT_EQ(diff_of("--- linux.orig/g\n+++ linux/g\n@@ -1 +1 @@\n-a\n+b\n"
                    "--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n"
                    "--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-y\n"),
            "diff --git a/g b/g\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n"
            "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n"
            "diff --git a/d b/d\ndeleted file mode 100644\n--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n"
            "-y\n");
  // Names without a directory make it -p0 for the rest of the patch, as
  // git apply guesses (git apply --check reads "f" and "d/g" from these).
  EXPECT_EQ(
      diff_of("--- f\t2026\n+++ f\n@@ -1 +1 @@\n-a\n+b\n--- d/g\n+++ d/g\n@@ -1 +1 @@\n-a\n+b\n"),
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
      "diff --git a/d/g b/d/g\n--- a/d/g\n+++ b/d/g\n@@ -1 +1 @@\n-a\n+b\n");
}

TEST(PatchTextTest, ADiffGitLineWithoutHeaderIsText) {
  PatchText text;
  EXPECT_EQ(diff_of("diff --git a/f b/f\nsome words\n", &text), "");
  EXPECT_EQ(text.diff_line, 0);
  EXPECT_EQ(text.outside.size(), 2u);
}

// 100 000 lines of one long hunk and a 1 MB line: linear, no recursion.
TEST(PatchTextTest, LargeInputsAreReadInLinearTime) {
  std::string hunk = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,100000 +1,100000 @@\n";
  for (int i = 0; i < 99999; ++i) {
    hunk += " x\n";
  }
  hunk += "-" + std::string(1 << 20, 'y') + "\n+z\n";
  EXPECT_EQ(diff_of(hunk + k_signature), hunk);
}

}  // namespace
}  // namespace kseries
