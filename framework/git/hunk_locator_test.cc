#include "git/hunk_locator.h"

#include <gtest/gtest.h>

namespace kseries::git {
namespace {

std::vector<std::string> numbered(int n) {
  std::vector<std::string> lines;
  for (int i = 1; i <= n; ++i) {
    lines.push_back("line " + std::to_string(i));
  }
  return lines;
}

TEST(HunkLocatorTest, MatchesInPlace) {
  const auto location = locate_hunk(numbered(20), {"line 5", "line 6"}, 5);
  EXPECT_TRUE(location.matches_in_place);
}

TEST(HunkLocatorTest, FindsContextThreeLinesBelow) {
  const auto location = locate_hunk(numbered(20), {"line 8", "line 9", "line 10"}, 5);
  EXPECT_FALSE(location.matches_in_place);
  ASSERT_TRUE(location.found_at);
  EXPECT_EQ(*location.found_at, 8);
  EXPECT_EQ(location.offset, 3);
  EXPECT_EQ(describe_location(location, 5).substr(0, 39),
            "context found 3 lines below (at line 8)");
}

TEST(HunkLocatorTest, PrefersTheNearestOfSeveralMatches) {
  std::vector<std::string> lines = {"x", "a", "b", "x", "x", "x", "x", "a", "b"};
  const auto location = locate_hunk(lines, {"a", "b"}, 7);
  ASSERT_TRUE(location.found_at);
  EXPECT_EQ(*location.found_at, 8);
  EXPECT_EQ(location.candidates, 2);
  EXPECT_NE(describe_location(location, 7).find("one of 2 places"), std::string::npos);
}

TEST(HunkLocatorTest, ReportsContextNotFound) {
  const auto location = locate_hunk(numbered(5), {"nothing like this"}, 2);
  EXPECT_FALSE(location.found_at);
  EXPECT_NE(describe_location(location, 2).find("not found"), std::string::npos);
}

}  // namespace
}  // namespace kseries::git
