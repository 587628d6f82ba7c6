#include "series/mail_text.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries {
namespace {

std::string refusal(std::string_view text, CommitField field) {
  std::vector<std::string> notes;
  try {
    commit_text(text, field, "utf-8", {"f.patch", 3}, notes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(MailTextTest, ValidUtf8PassesThrough) {
  const std::string text = "J\xC3\xB6rg \xE2\x82\xAC \xF0\x9F\x90\xA7 tab\there";
  for (const char* charset : {"", "utf-8", "UTF8"}) {
    const auto clean = to_utf8(text, charset);
    EXPECT_EQ(clean.text, text);
    EXPECT_EQ(clean.replaced + clean.latin1, 0u);
  }
}

TEST(MailTextTest, InvalidBytesInDeclaredUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(to_utf8("a\xFF"
                    "b",
                    "utf-8")
                .text,
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(to_utf8("\xC0\xAF", "utf-8").replaced, 2u);          // overlong '/'
  EXPECT_EQ(to_utf8("\xED\xA0\x80", "utf-8").replaced, 3u);      // a surrogate
  EXPECT_EQ(to_utf8("\xF4\x90\x80\x80", "utf-8").replaced, 4u);  // past U+10FFFF
  EXPECT_EQ(to_utf8("\xE2\x82", "utf-8").replaced, 2u);          // cut short
}

// No charset declared: what is not UTF-8 is read as Latin-1, byte by byte,
// as git's commit_tree does (git am "did not conform to UTF-8").
TEST(MailTextTest, UndeclaredBytesAreReadAsLatin1) {
  const auto clean = to_utf8("caf\xE9 \xC3\xA9 \xFF", "");
  EXPECT_EQ(clean.text, "caf\xC3\xA9 \xC3\xA9 \xC3\xBF");
  EXPECT_EQ(clean.latin1, 2u);
  EXPECT_EQ(clean.first_bad, 3u);
}

// A declared charset is converted by glibc's iconv, as git mailinfo does.
TEST(MailTextTest, DeclaredCharsetsAreConvertedByIconv) {
  EXPECT_EQ(to_utf8("Andr\xE9", "ISO-8859-1").text, "Andr\xC3\xA9");
  EXPECT_EQ(to_utf8("\x80 \xE9", "windows-1252").text, "\xE2\x82\xAC \xC3\xA9");
  EXPECT_EQ(to_utf8("\xA4", "iso-8859-15").text, "\xE2\x82\xAC");  // not Latin-1's U+00A4
  EXPECT_EQ(to_utf8("\xD0\xD2\xC9", "koi8-r").text, "\xD0\xBF\xD1\x80\xD0\xB8");
  // A byte the charset lacks becomes U+FFFD; the rest goes on.
  const auto bad = to_utf8("ok \xE9 ok", "us-ascii");
  EXPECT_EQ(bad.text, "ok \xEF\xBF\xBD ok");
  EXPECT_EQ(bad.replaced, 1u);
  EXPECT_EQ(bad.first_bad, 3u);
  // A charset iconv does not know (or a name no charset has) is undeclared.
  for (const char* unknown : {"x-no-such-charset", "utf-8//TRANSLIT", "../../etc"}) {
    const auto clean = to_utf8("caf\xE9", unknown);
    EXPECT_TRUE(clean.unknown_charset) << unknown;
    EXPECT_EQ(clean.text, "caf\xC3\xA9") << unknown;
  }
  EXPECT_EQ(content_type_charset("text/plain; charset=\"ISO-8859-1\"; format=flowed"),
            "iso-8859-1");
  EXPECT_EQ(content_type_charset("text/plain; charset=UTF-8"), "utf-8");
  EXPECT_EQ(content_type_charset("text/plain"), "");
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

TEST(MailTextTest, ConversionsAreNotedAtTheirLine) {
  std::vector<std::string> notes;
  EXPECT_EQ(commit_text("ok\nbad \xFF\n", CommitField::k_message, "UTF-8", {"f.patch", 10}, notes),
            "ok\nbad \xEF\xBF\xBD\n");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "f.patch:11: the commit message: 1 byte(s) not valid in the declared charset "
            "'UTF-8': replaced with U+FFFD");
  notes.clear();
  EXPECT_EQ(commit_text("one\nAndr\xE9\n", CommitField::k_message, "", {"f.patch", 1}, notes),
            "one\nAndr\xC3\xA9\n");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "f.patch:2: the commit message: 1 byte(s) not UTF-8 and no charset declared: read "
            "as Latin-1, as git am does");
  notes.clear();
  EXPECT_EQ(commit_text("Andr\xE9", CommitField::k_message, "latin1", {"f.patch", 1}, notes),
            "Andr\xC3\xA9");
  EXPECT_TRUE(notes.empty());
}

// The checks look at the converted text: UTF-16 spells a line break in
// bytes that hold none, and a NUL byte that is only half a character.
TEST(MailTextTest, ChecksRunOnTheConvertedText) {
  std::vector<std::string> notes;
  EXPECT_THROW(commit_text(std::string("a\0\n\0", 4), CommitField::k_subject, "utf-16le",
                           {"f.patch", 1}, notes),
               Error);
  EXPECT_EQ(commit_text(std::string("a\0b\0", 4), CommitField::k_subject, "utf-16le",
                        {"f.patch", 1}, notes),
            "ab");
}

}  // namespace
}  // namespace kseries
