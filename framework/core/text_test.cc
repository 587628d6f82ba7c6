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

TEST(TextTest, SizeInMib) {
  EXPECT_EQ(size_in_mib("4096M"), 4096u);
  EXPECT_EQ(size_in_mib("16G"), 16384u);
  EXPECT_EQ(size_in_mib("0M"), 0u);
  for (const char* bad : {"", "M", "16", "16K", "16g", "-1G", "1.5G", "16 G", "99999999999999G"}) {
    EXPECT_FALSE(size_in_mib(bad).has_value()) << bad;
  }
}

TEST(TextTest, LastLines) {
  EXPECT_EQ(last_lines("", 15), "");  // was std::out_of_range in one copy
  EXPECT_EQ(last_lines("a\nb\nc\n", 2), "b\nc\n");
  EXPECT_EQ(last_lines("a\nb\nc", 2), "b\nc");
  EXPECT_EQ(last_lines("a\nb\nc\n", 3), "a\nb\nc\n");
  EXPECT_EQ(last_lines("a\nb\nc\n", 9), "a\nb\nc\n");
  EXPECT_EQ(last_lines("a\nb\n", 0), "");
  EXPECT_EQ(last_lines("\n\n", 1), "\n");
  EXPECT_EQ(last_lines("one line", 1), "one line");
}

TEST(TextTest, Trim) {
  EXPECT_EQ(trim("  x y \t\n"), "x y");
  EXPECT_EQ(trim(""), "");
}

}  // namespace
}  // namespace kseries
