#include "series/diff_scanner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/text.h"

namespace kseries {
namespace {

// The lines of `mail_tail` the scanner keeps as the diff, joined.
std::string diff_part(const std::string& mail_tail, bool* binary = nullptr) {
  DiffScanner scanner;
  std::string kept;
  for (const auto line : split_lines(mail_tail)) {
    if (!scanner.take(line)) {
      break;
    }
    kept += std::string(line) + "\n";
  }
  if (binary) {
    *binary = scanner.ends_in_binary();
  }
  return kept;
}

const std::string k_signature = "-- \n2.39.5\n\n";

TEST(DiffScannerTest, StopsAtTheSignatureAfterTheLastHunk) {
  const std::string diff =
      "diff --git a/f b/f\nindex 1111111..2222222 100644\n--- a/f\n+++ b/f\n"
      "@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
  EXPECT_EQ(diff_part(diff + k_signature), diff);
  EXPECT_EQ(diff_part(diff + "base-commit: 1234\n"), diff);
}

TEST(DiffScannerTest, AHunkLineRemovingDashSpaceIsNotTheSignature) {
  const std::string diff =
      "diff --git a/notes.txt b/notes.txt\nindex 1111111..2222222 100644\n"
      "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,2 @@\n a\n-- \n b\n";
  EXPECT_EQ(diff_part(diff + k_signature), diff);
  // As the last line of a hunk, and with a second file after it.
  const std::string two =
      "diff --git a/n b/n\n--- a/n\n+++ b/n\n@@ -1,2 +1 @@\n a\n-- \n"
      "diff --git a/m b/m\n--- a/m\n+++ b/m\n@@ -1 +1 @@\n-- \n+x\n";
  EXPECT_EQ(diff_part(two + k_signature), two);
}

TEST(DiffScannerTest, CountsBlankContextAndNoNewlineMarkers) {
  const std::string diff =
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n"
      "\\ No newline at end of file\n";
  EXPECT_EQ(diff_part(diff + k_signature), diff);
}

TEST(DiffScannerTest, KeepsTheBlankLinesOfABinaryPatch) {
  const std::string diff =
      "diff --git a/zz.bin b/zz.bin\nnew file mode 100644\nindex 0000000..e35f6fa\n"
      "GIT binary patch\nliteral 11\nScmYew%wtF_s$^hfVg>*c^8$<j\n\nliteral 0\nHcmV?d00001\n\n";
  bool binary = false;
  EXPECT_EQ(diff_part(diff + k_signature, &binary), diff);
  EXPECT_TRUE(binary);
  const std::string text_first = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n";
  EXPECT_EQ(diff_part(text_first + diff + k_signature, &binary), text_first + diff);
  EXPECT_TRUE(binary);
  EXPECT_EQ(diff_part(diff + text_first + k_signature, &binary), diff + text_first);
  EXPECT_FALSE(binary);
}

TEST(DiffScannerTest, AShortHunkStillEndsAtTheSignature) {
  // The header promises 5 lines; git apply will refuse it, but the mail's
  // signature must not become part of it.
  const std::string diff = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n";
  EXPECT_EQ(diff_part(diff + "base-commit: 1234\n"), diff);
}

}  // namespace
}  // namespace kseries
