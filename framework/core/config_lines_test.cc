#include "core/config_lines.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries {
namespace {

TEST(ConfigLinesTest, SkipsBlanksAndCommentsKeepingNumbers) {
  const auto lines = content_lines("# c\n\n  a.patch  \n#x\nb.patch\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].number, 3);
  EXPECT_EQ(lines[0].text, "a.patch");
  EXPECT_EQ(lines[1].number, 5);
}

TEST(ConfigLinesTest, KeyValuesAndTheirErrors) {
  const auto pairs = parse_key_values("base: tinyconfig\ncannot: map=dev: reason: more\n", "t");
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1].key, "cannot");
  EXPECT_EQ(pairs[1].value, "map=dev: reason: more");
  try {
    parse_key_values("# x\nno colon here\n", "f.target");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "f.target:2: expected 'key: value', found 'no colon here'");
  }
}

}  // namespace
}  // namespace kseries
