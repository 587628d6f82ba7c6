#include "core/text.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

TEST(TextTest, SplitLinesDropsCarriageReturnsAndFinalEmptyLine) {
  const auto lines = split_lines("a\r\nb\n\nc\n");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "a");
  EXPECT_EQ(lines[1], "b");
  EXPECT_EQ(lines[2], "");
  EXPECT_EQ(lines[3], "c");
}

TEST(TextTest, SplitLinesKeepsLastLineWithoutNewline) {
  const auto lines = split_lines("a\nb");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "b");
}

TEST(TextTest, SplitWordsOnSpacesAndTabs) {
  EXPECT_EQ(split_words("  pmem\tzone-device  ftrace "),
            (std::vector<std::string>{"pmem", "zone-device", "ftrace"}));
  EXPECT_TRUE(split_words(" \t ").empty());
  EXPECT_EQ(split_words("one"), std::vector<std::string>{"one"});
}

TEST(TextTest, Trim) {
  EXPECT_EQ(trim("  x y \t\n"), "x y");
  EXPECT_EQ(trim(""), "");
}

}  // namespace
}  // namespace kseries
