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

// Kernel console lines and guest reasons reached the terminal raw: an
// erase-line, cursor-up and a fake verdict, a window title, an OSC 52
// clipboard write.
TEST(Utf8Test, PrintableTextDefusesTerminalControls) {
  EXPECT_EQ(printable_text("ok\x1b[2K\r\x1b[1Agate: PASS\n"),
            "ok\xE2\x90\x9B[2K\xE2\x90\x8D\xE2\x90\x9B[1Agate: PASS\n");
  EXPECT_EQ(printable_text("\x1b]0;title\x07"), "\xE2\x90\x9B]0;title\xE2\x90\x87");
  EXPECT_EQ(printable_text("\x1b]52;c;aGk=\x1b\\"), "\xE2\x90\x9B]52;c;aGk=\xE2\x90\x9B\\");
  EXPECT_EQ(printable_text("a\xC2\x9B"
                           "2Jb"),
            "a\xEF\xBF\xBD"
            "2Jb");                                               // 8-bit CSI
  EXPECT_EQ(printable_text("x\xE2\x80\xAEy"), "x\xEF\xBF\xBDy");  // U+202E
  EXPECT_EQ(printable_text(std::string("\x7f\0", 2)), "\xE2\x90\xA1\xE2\x90\x80");
  // A CR at the very end is as bare as one mid-line (the fuzzer's find:
  // "ok\x1bK\r...gate:" ending in CR).
  EXPECT_EQ(printable_text("ok\r"), "ok\xE2\x90\x8D");
  // Kept: newlines, tabs, CRLF line ends, UTF-8 text.
  const std::string plain = "line 1\r\n\tJ\xC3\xB6rg\n";
  EXPECT_EQ(printable_text(plain), plain);
  EXPECT_EQ(printable_text(printable_text("\x1b[8mhidden")), printable_text("\x1b[8mhidden"));
}

TEST(Utf8Test, OneLineTurnsControlBytesIntoSpacesAndBounds) {
  EXPECT_EQ(one_line("a\r\nb\tc\x7f", 100), "a  b c ");
  EXPECT_EQ(one_line(std::string("x\0y", 3), 100), "x y");
  EXPECT_EQ(one_line("abcdef", 4), "abcd");
  EXPECT_EQ(one_line("caf\xc3\xa9", 100), "caf\xc3\xa9");  // bytes above 0x7f are kept
}

}  // namespace
}  // namespace kseries
