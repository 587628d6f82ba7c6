#include "series/diff_safety.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries {
namespace {

std::string refusal(const std::string& diff, std::size_t max = 1 << 20) {
  try {
    check_diff_safety(diff, "patch 1/1 'x'", max);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* k_plain =
    "diff --git a/mm/mm_init.c b/mm/mm_init.c\n"
    "index 0f64909e8d20..95808ab5cfdb 100644\n"
    "--- a/mm/mm_init.c\n"
    "+++ b/mm/mm_init.c\n"
    "@@ -1 +1 @@\n"
    "--- this removed line looks like a header but is hunk content\n"
    "+x\n";

TEST(DiffSafetyTest, AcceptsAnOrdinaryDiff) { EXPECT_EQ(refusal(k_plain), ""); }

TEST(DiffSafetyTest, RefusesAbsolutePaths) {
  const auto error = refusal("diff --git a//etc/passwd b//etc/passwd\n--- a//etc/passwd\n");
  EXPECT_NE(error.find("an absolute path: '/etc/passwd'"), std::string::npos) << error;
}

TEST(DiffSafetyTest, RefusesDotDotInRenameTarget) {
  const auto error =
      refusal("diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to ../../y\n");
  EXPECT_NE(error.find("a '..' component: '../../y'"), std::string::npos) << error;
}

TEST(DiffSafetyTest, RefusesGitDirectoryEvenWithOtherCase) {
  const auto error =
      refusal("diff --git a/.GIT/hooks/pre-commit b/.GIT/hooks/pre-commit\nnew file mode 100755\n");
  EXPECT_NE(error.find("a path inside .git"), std::string::npos) << error;
}

// A 300-byte name applied, then the checkout failed and left the target's
// source tree mid-update (every later build of it failed).
TEST(DiffSafetyTest, RefusesNamesNoFileSystemTakes) {
  const std::string name = "dir/" + std::string(300, 'n') + ".c";
  const auto error = refusal("diff --git a/" + name + " b/" + name + "\nnew file mode 100644\n");
  EXPECT_NE(error.find("a name of 302 bytes (a file system takes 255)"), std::string::npos)
      << error;
  const std::string ok = std::string(255, 'n');
  EXPECT_EQ(refusal("diff --git a/" + ok + " b/" + ok + "\nnew file mode 100644\n"), "");
}

TEST(DiffSafetyTest, RefusesQuotedTraversal) {
  const auto error = refusal("diff --git \"a/\\056\\056/x\" \"b/\\056\\056/x\"\n");
  EXPECT_NE(error.find("'..' component"), std::string::npos) << error;
}

TEST(DiffSafetyTest, RefusesSymlinkAndSubmoduleModes) {
  auto error = refusal("diff --git a/l b/l\nnew file mode 120000\nindex 0000000..1111111\n");
  EXPECT_NE(error.find("refuses a symlink mode on 'l'"), std::string::npos) << error;
  error = refusal("diff --git a/sub b/sub\nindex 1111111..2222222 160000\n");
  EXPECT_NE(error.find("refuses a submodule mode on 'sub'"), std::string::npos) << error;
}

TEST(DiffSafetyTest, AHashThatContainsTheDigitsIsNotAMode) {
  EXPECT_EQ(refusal("diff --git a/f b/f\nindex 1200001..1600002 100644\n--- a/f\n+++ b/f\n"), "");
}

TEST(DiffSafetyTest, RefusesANulByteNamingLineAndFile) {
  using namespace std::string_literals;  // the literal holds a NUL
  const std::string diff("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+a\0b\n"s);
  const auto error = refusal(diff);
  EXPECT_NE(error.find("patch 1/1 'x': refuses a NUL byte in line 6 of the diff of 'f'"),
            std::string::npos)
      << error;
}

TEST(DiffSafetyTest, RefusesOversizedDiffs) {
  const auto error = refusal(k_plain, 10);
  EXPECT_NE(error.find("over the limit of 10"), std::string::npos) << error;
}

TEST(DiffSafetyTest, ListsTouchedFiles) {
  const auto files = diff_files(
      "diff --git a/old b/new\nsimilarity index 90%\nrename from old\nrename to new\n"
      "diff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n"
      "diff --git a/born b/born\nnew file mode 100644\n--- /dev/null\n+++ b/born\n");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].old_path, "old");
  EXPECT_EQ(files[0].new_path, "new");
  EXPECT_EQ(files[1].new_path, "");
  EXPECT_EQ(files[2].old_path, "");
  EXPECT_EQ(files[2].new_path, "born");
}

TEST(DiffSafetyTest, QuotedPathsAreReadAsLibgit2ReadsThem) {
  EXPECT_EQ(refusal("diff --git \"a/t\\303\\251st\" \"b/t\\303\\251st\"\n"), "");
  EXPECT_NE(refusal("diff --git \"a/\\056\\056/x\" \"b/\\056\\056/x\"\n").find("'..' component"),
            std::string::npos);
  // \400 is not a byte; the old reader made it 256 and kept the low 8 bits.
  for (const char* bad : {"\"a/\\400\"", "\"a/\\9\"", "\"a/\\05\"", "\"a/\\q\""}) {
    const auto error = refusal(std::string("diff --git ") + bad + " b/x\n");
    EXPECT_NE(error.find("refuses a malformed quoted path"), std::string::npos) << bad << error;
  }
}

}  // namespace
}  // namespace kseries
