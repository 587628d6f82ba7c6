#include "series/mail_text.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries {
namespace {

std::string refusal(std::string_view text, CommitField field) {
  std::vector<std::string> notes;
  try {
    commit_text(text, field, Charset::k_utf8, {"f.patch", 3}, notes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(MailTextTest, ValidUtf8PassesThrough) {
  const std::string text = "J\xC3\xB6rg \xE2\x82\xAC \xF0\x9F\x90\xA7 tab\there";
  const auto clean = to_utf8(text, Charset::k_utf8);
  EXPECT_EQ(clean.text, text);
  EXPECT_EQ(clean.replaced, 0u);
}

TEST(MailTextTest, InvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(to_utf8("a\xFF"
                    "b",
                    Charset::k_utf8)
                .text,
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(to_utf8("\xC0\xAF", Charset::k_utf8).replaced, 2u);          // overlong '/'
  EXPECT_EQ(to_utf8("\xED\xA0\x80", Charset::k_utf8).replaced, 3u);      // a surrogate
  EXPECT_EQ(to_utf8("\xF4\x90\x80\x80", Charset::k_utf8).replaced, 4u);  // past U+10FFFF
  EXPECT_EQ(to_utf8("\xE2\x82", Charset::k_utf8).replaced, 2u);          // cut short
}

TEST(MailTextTest, Latin1IsConverted) {
  EXPECT_EQ(to_utf8("Andr\xE9", Charset::k_latin1).text, "Andr\xC3\xA9");
  EXPECT_EQ(content_type_charset("text/plain; charset=\"ISO-8859-1\"; format=flowed"),
            Charset::k_latin1);
  EXPECT_EQ(content_type_charset("text/plain; charset=UTF-8"), Charset::k_utf8);
  EXPECT_EQ(content_type_charset(""), Charset::k_utf8);
  EXPECT_EQ(charset_from_name("latin1"), Charset::k_latin1);
}

TEST(MailTextTest, ForgedHeaderTextIsRefusedNamingTheLine) {
  EXPECT_EQ(refusal("Evil\ncommitter Mallory", CommitField::k_author_name),
            "f.patch:3: the author name contains a line break (a forged commit header?): "
            "'Evil\\ncommitter Mallory'");
  EXPECT_NE(refusal("e@x> 0 +0000\ngpgsig", CommitField::k_author_email).find("'<' or '>'"),
            std::string::npos);
  EXPECT_NE(refusal("Evil <e@x", CommitField::k_author_name).find("'<' or '>'"), std::string::npos);
  EXPECT_NE(refusal("title\rsecond", CommitField::k_subject).find("subject contains a line break"),
            std::string::npos);
  EXPECT_NE(refusal(std::string("Ev\0il", 5), CommitField::k_author_name).find("a NUL byte"),
            std::string::npos);
  // A message may have lines and '<'; a NUL is named by its own line.
  EXPECT_EQ(refusal("<a@b>\nline\n", CommitField::k_message), "");
  EXPECT_NE(refusal(std::string("one\ntwo\0three\n", 14), CommitField::k_message)
                .find("f.patch:4: the commit message contains a NUL byte"),
            std::string::npos);
}

TEST(MailTextTest, ReplacedBytesAreNotedAtTheirLine) {
  std::vector<std::string> notes;
  EXPECT_EQ(commit_text("ok\nbad \xFF\n", CommitField::k_message, Charset::k_utf8, {"f.patch", 10},
                        notes),
            "ok\nbad \xEF\xBF\xBD\n");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "f.patch:11: 1 byte(s) of the commit message are not UTF-8 (nor in a declared "
            "Latin-1 charset); replaced with U+FFFD");
  notes.clear();
  EXPECT_EQ(
      commit_text("Andr\xE9", CommitField::k_message, Charset::k_latin1, {"f.patch", 1}, notes),
      "Andr\xC3\xA9");
  EXPECT_TRUE(notes.empty());
}

}  // namespace
}  // namespace kseries
