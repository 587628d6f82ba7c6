#include "coverage/changed_lines.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "git/libgit2.h"

namespace kseries::coverage {
namespace {

class ChangedLinesTest : public ::testing::Test {
  git::Session m_session;
};

// Patch 1 adds "int b2 = 0;" as line 3 of a.c; patch 2 inserts two lines
// above it (so it moves to line 5) and rewrites patch 1's other line.
const char* k_patch1 =
    "diff --git a/a.c b/a.c\n"
    "index 1111111..2222222 100644\n"
    "--- a/a.c\n"
    "+++ b/a.c\n"
    "@@ -1,4 +1,6 @@\n"
    " int a = 0;\n"
    " int b = 0;\n"
    "+int b2 = 0;\n"
    " int c = 0;\n"
    "+int c2 = 0;\n"
    " int d = 0;\n";

const char* k_patch2 =
    "diff --git a/a.c b/a.c\n"
    "index 2222222..3333333 100644\n"
    "--- a/a.c\n"
    "+++ b/a.c\n"
    "@@ -1,6 +1,8 @@\n"
    "+#include \"x.h\"\n"
    "+#include \"y.h\"\n"
    " int a = 0;\n"
    " int b = 0;\n"
    " int b2 = 0;\n"
    " int c = 0;\n"
    "-int c2 = 0;\n"
    "+int c2 = 1;\n"
    " int d = 0;\n";

TEST_F(ChangedLinesTest, ReadsAddedAndModifiedLinesWithTheirNumbers) {
  const auto change = read_patch_change(k_patch2, "patch 2");
  ASSERT_EQ(change.size(), 1u);
  EXPECT_EQ(change[0].old_path, "a.c");
  EXPECT_EQ(change[0].new_path, "a.c");
  EXPECT_EQ(change[0].removed, std::vector<int>{5});
  ASSERT_EQ(change[0].added.size(), 3u);
  EXPECT_EQ(change[0].added[0].line, 1);
  EXPECT_FALSE(change[0].added[0].modifies);
  EXPECT_EQ(change[0].added[2].line, 7);
  EXPECT_EQ(change[0].added[2].text, "int c2 = 1;");
  EXPECT_TRUE(change[0].added[2].modifies);
}

TEST_F(ChangedLinesTest, MapsASurvivingLineAcrossAHunk) {
  const auto change = read_patch_change(k_patch2, "patch 2");
  EXPECT_EQ(map_line(change[0], 1), 3);  // two lines inserted above
  EXPECT_EQ(map_line(change[0], 3), 5);
  EXPECT_EQ(map_line(change[0], 5), std::nullopt);  // removed (rewritten)
  EXPECT_EQ(map_line(change[0], 6), 8);
  EXPECT_EQ(map_line(change[0], 40), 42);  // below every hunk
}

TEST_F(ChangedLinesTest, ALineThatMovesBetweenPrefixesKeepsItsIdentity) {
  const auto patch1 = read_patch_change(k_patch1, "patch 1");
  const auto patch2 = read_patch_change(k_patch2, "patch 2");
  // After patch 1 alone: its two lines, where it put them.
  const auto first = changed_lines({patch1});
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].at, (Position{"a.c", 3}));
  EXPECT_EQ(first[1].at, (Position{"a.c", 5}));
  EXPECT_EQ(present_lines(first).size(), 2u);
  const auto lines = changed_lines({patch1, patch2});
  ASSERT_EQ(lines.size(), 5u);  // b2, c2 (patch 1); two includes and the new c2 (patch 2)
  const ChangedLine& b2 = lines[0];
  EXPECT_EQ(b2.patch, 0u);
  EXPECT_EQ(b2.text, "int b2 = 0;");
  EXPECT_EQ(b2.tip(), (Position{"a.c", 5}));  // moved by patch 2, same line
  // Patch 1's c2 is rewritten by patch 2: it ends there, and the rewrite is
  // patch 2's own changed line.
  const ChangedLine& old_c2 = lines[1];
  EXPECT_EQ(old_c2.tip(), std::nullopt);
  const ChangedLine& new_c2 = lines[4];
  EXPECT_EQ(new_c2.patch, 1u);
  EXPECT_TRUE(new_c2.modifies);
  EXPECT_EQ(new_c2.tip(), (Position{"a.c", 7}));
  EXPECT_EQ(lines[2].tip(), (Position{"a.c", 1}));
  EXPECT_EQ(lines[3].tip(), (Position{"a.c", 2}));
  EXPECT_EQ(present_lines(lines).size(), 4u);
}

TEST_F(ChangedLinesTest, FollowsARenameAndEndsAtADeletion) {
  const auto patch1 = read_patch_change(
      "diff --git a/x.c b/x.c\nnew file mode 100644\nindex 0000000..1111111\n"
      "--- /dev/null\n+++ b/x.c\n@@ -0,0 +1,2 @@\n+one\n+two\n",
      "patch 1");
  const auto patch2 = read_patch_change(
      "diff --git a/x.c b/y.c\nsimilarity index 50%\nrename from x.c\n"
      "rename to y.c\nindex 1111111..2222222 100644\n--- a/x.c\n+++ b/y.c\n"
      "@@ -1,2 +1,3 @@\n+zero\n one\n two\n",
      "patch 2");
  const auto patch3 = read_patch_change(
      "diff --git a/y.c b/y.c\ndeleted file mode 100644\n"
      "index 2222222..0000000\n--- a/y.c\n+++ /dev/null\n"
      "@@ -1,3 +0,0 @@\n-zero\n-one\n-two\n",
      "patch 3");
  const auto renamed = changed_lines({patch1, patch2});
  ASSERT_EQ(renamed.size(), 3u);
  EXPECT_EQ(renamed[0].at, (Position{"y.c", 2}));
  EXPECT_EQ(renamed[2].at, (Position{"y.c", 1}));
  const auto deleted = changed_lines({patch1, patch2, patch3});
  ASSERT_EQ(deleted.size(), 3u);
  EXPECT_EQ(deleted[0].at, std::nullopt);
  EXPECT_TRUE(present_lines(deleted).empty());
}

// Each patch of a long series edits the same file: every earlier line is
// followed to the tip, as a patch at a time would move it (the reference:
// map_line applied patch by patch), and the cost stays near linear (a
// quadratic follow took minutes at this size under the sanitizers).
TEST_F(ChangedLinesTest, FollowsLinesThroughManyPatchesOfOneFile) {
  std::vector<PatchChange> patches;
  std::vector<std::optional<Position>> where;
  for (int p = 0; p < 2000; ++p) {
    // Patch p inserts a line at the top and rewrites line 3 (after the
    // first patches, a line an earlier patch added).
    FileChange file;
    file.old_path = file.new_path = "a.c";
    file.added.push_back({1, "top " + std::to_string(p), false});
    file.removed.push_back(3);
    file.added.push_back({3, "rewrite " + std::to_string(p), true});
    for (auto& at : where) {
      if (at) {
        at = map_line(file, at->line)
                 ? std::optional<Position>(Position{"a.c", *map_line(file, at->line)})
                 : std::nullopt;
      }
    }
    where.emplace_back(Position{"a.c", 1});
    where.emplace_back(Position{"a.c", 3});
    patches.push_back({file});
  }
  const auto lines = changed_lines(patches);
  ASSERT_EQ(lines.size(), where.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].at, where[i]) << "line " << i;
  }
}

TEST_F(ChangedLinesTest, ADiffThatDoesNotParseNamesThePatch) {
  try {
    read_patch_change("diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,2 @@ x\n-a\n",
                      "patch 4/8 'mm: x'");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("patch 4/8 'mm: x'"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace kseries::coverage
