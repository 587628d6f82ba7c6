#include "series/git_header.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

std::vector<std::string> quoted(std::vector<std::string> lines) {
  quote_git_headers(lines);
  return lines;
}

TEST(GitHeader, SameNameWithSpacesIsQuoted) {
  EXPECT_EQ(quoted({"diff --git a/foo bar b/foo bar", "new file mode 100644"})[0],
            "diff --git \"a/foo bar\" \"b/foo bar\"");
  // The split is where both names agree, not at the first " b/".
  EXPECT_EQ(quoted({"diff --git a/x b/y b/x b/y"})[0], "diff --git \"a/x b/y\" \"b/x b/y\"");
}

TEST(GitHeader, RenameTakesTheNamesFromItsLines) {
  const auto lines = quoted({"diff --git a/foo bar b/baz qux", "similarity index 100%",
                             "rename from foo bar", "rename to baz qux"});
  EXPECT_EQ(lines[0], "diff --git \"a/foo bar\" \"b/baz qux\"");
  // libgit2 read these only up to the first space ("trailing data").
  EXPECT_EQ(lines[2], "rename from \"foo bar\"");
  EXPECT_EQ(lines[3], "rename to \"baz qux\"");
}

TEST(GitHeader, FileLinesOfTheHeaderAreQuotedHunkLinesAreNot) {
  const auto lines = quoted({"diff --git a/foo bar b/foo bar", "--- a/foo bar\t", "+++ b/foo bar\t",
                             "@@ -1 +1 @@", "--- a b", "+++ c d"});
  EXPECT_EQ(lines[1], "--- \"a/foo bar\"");
  EXPECT_EQ(lines[2], "+++ \"b/foo bar\"");
  EXPECT_EQ(lines[4], "--- a b");
  EXPECT_EQ(lines[5], "+++ c d");
}

TEST(GitHeader, PlainAndQuotedLinesStayAsTheyAre) {
  for (const std::string line : {"diff --git a/mm/memremap.c b/mm/memremap.c",
                                 "diff --git \"a/t\\303\" \"b/t\\303\"", "diff --git a/one two"}) {
    EXPECT_EQ(quoted({line})[0], line);
  }
}

TEST(GitHeader, QuotesAsGitDoes) {
  EXPECT_EQ(quote_git_path("a/x\"y\\z\tw\x01"), "\"a/x\\\"y\\\\z\\tw\\001\"");
}

}  // namespace
}  // namespace kseries
