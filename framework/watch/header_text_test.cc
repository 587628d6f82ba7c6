#include "watch/header_text.h"

#include <gtest/gtest.h>

namespace kseries::watch {
namespace {

// Issue 50: a display name cut at 200 bytes inside a UTF-8 character.
TEST(HeaderText, IsCutBetweenCharactersNeverInsideOne) {
  const std::string li = "\xe6\x9d\x8e";  // U+674E, 3 bytes
  std::string name;
  for (int i = 0; i < 100; ++i) {
    name += li;
  }
  const std::string cut = header_text(name, 200);
  EXPECT_EQ(cut.size(), 198u);  // 66 whole characters
  EXPECT_EQ(cut.substr(195), li);
  EXPECT_EQ(utf8_prefix("a" + li, 3), "a");
}

TEST(HeaderText, IsOneTrimmedLineOfValidUtf8) {
  EXPECT_EQ(header_text("  a\r\nBcc: x\x1b[2K\x7f \xff "), "a  Bcc: x [2K  \xEF\xBF\xBD");
}

}  // namespace
}  // namespace kseries::watch
