#include "core/utf8.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

const std::string k_bad(k_replacement_char);

TEST(Utf8Test, DecodesWellFormedCharacters) {
  EXPECT_EQ(next_utf8_char("a").length, 1u);
  EXPECT_EQ(next_utf8_char("\xC3\xA9").code, U'\u00E9');
  EXPECT_EQ(next_utf8_char("\xE2\x82\xAC").code, U'\u20AC');
  EXPECT_EQ(next_utf8_char("\xF0\x9F\x90\xA7").length, 4u);
  EXPECT_EQ(next_utf8_char("\xEF\xBF\xBF").code, 0xFFFFu);  // valid UTF-8, not XML
}

TEST(Utf8Test, RefusesMalformedSequences) {
  for (const char* bytes :
       {"\xE9x", "\xFF", "\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\x80"}) {
    EXPECT_EQ(next_utf8_char(bytes).length, 0u) << bytes;
  }
}

TEST(Utf8Test, ValidUtf8ReplacesEachStrayByteAndKeepsTheRest) {
  EXPECT_EQ(valid_utf8("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(valid_utf8("caf\xE9!"), "caf" + k_bad + "!");
  EXPECT_EQ(valid_utf8("\xFF\xFE"), k_bad + k_bad);
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), k_bad + k_bad + k_bad);
  // Controls and NUL are UTF-8: kept (JSON escapes them, XML replaces them).
  const std::string controls("\x1b[0m\x0c\0end", 9);
  EXPECT_EQ(valid_utf8(controls), controls);
  EXPECT_EQ(valid_utf8(""), "");
}

}  // namespace
}  // namespace kseries
