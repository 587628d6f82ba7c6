#include "series/mail.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries {
namespace {

TEST(MailTest, DecodesQuotedPrintableEncodedWords) {
  EXPECT_EQ(decode_rfc2047("=?UTF-8?q?J=C3=B6rg_R=C3=B6del?="),
            "J\xC3\xB6rg R\xC3\xB6"
            "del");
}

TEST(MailTest, DecodesBase64AndJoinsAdjacentWords) {
  // "Zhé" then "Li": whitespace between two encoded words is dropped.
  EXPECT_EQ(decode_rfc2047("=?utf-8?b?WmjDqQ==?= =?utf-8?q?_Li?="), "Zh\xC3\xA9 Li");
}

TEST(MailTest, DecodesLatin1ToUtf8) {
  EXPECT_EQ(decode_rfc2047("=?ISO-8859-1?Q?Andr=E9?= Smith"), "Andr\xC3\xA9 Smith");
  EXPECT_EQ(decode_rfc2047("caf=?iso-8859-1?q?=E9?="), "caf\xC3\xA9");
}

// Every word from its own charset (GMime, through iconv), as git mailinfo's
// decode_header; raw 8-bit text between words read as Latin-1 when it is
// not UTF-8.
TEST(MailTest, EncodedWordsAreConvertedFromTheirCharset) {
  EXPECT_EQ(decode_rfc2047("=?windows-1252?q?=80?= =?koi8-r?b?0NLJ?= \xE9"),
            "\xE2\x82\xAC\xD0\xBF\xD1\x80\xD0\xB8 \xC3\xA9");
  // A byte the declared charset does not have: GMime writes '?'.
  EXPECT_EQ(decode_rfc2047("=?utf-8?q?caf=E9?="), "caf?");
  // UTF-7 spells a line break in plain letters: decoded, for the commit
  // text checks to refuse.
  EXPECT_EQ(decode_rfc2047("=?utf-7?q?a+AAo-b?="), "a\nb");
}

TEST(MailTest, PlainTextPassesThrough) {
  EXPECT_EQ(decode_rfc2047("Li Zhe <lizhe.67@bytedance.com>"), "Li Zhe <lizhe.67@bytedance.com>");
}

TEST(MailTest, ParsesAddressForms) {
  auto a = parse_address("Li Zhe <lizhe.67@bytedance.com>");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "Li Zhe");
  EXPECT_EQ(a->email, "lizhe.67@bytedance.com");
  auto b = parse_address("\"Hildenbrand, David\" <david@kernel.org>");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "Hildenbrand, David");
  auto c = parse_address("rppt@kernel.org (Mike Rapoport)");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->name, "Mike Rapoport");
  EXPECT_EQ(c->email, "rppt@kernel.org");
  EXPECT_FALSE(parse_address("no address here"));
}

// git mailinfo's get_sane_name: a name under 3 or over 60 bytes, or with
// '@', '<' or '>', is no name; git am records the address instead.
TEST(MailTest, AnAddressStandsInForANameGitWouldNotTake) {
  EXPECT_EQ(parse_address("Li <li@x.org>")->name, "li@x.org");
  EXPECT_EQ(parse_address("<li@x.org>")->name, "li@x.org");
  EXPECT_EQ(parse_address("li@x.org")->name, "li@x.org");
  EXPECT_EQ(parse_address("\"a@b\" <li@x.org>")->name, "li@x.org");
  EXPECT_EQ(parse_address(std::string(61, 'n') + " <li@x.org>")->name, "li@x.org");
  EXPECT_EQ(parse_address("Zhe   Li <li@x.org>")->name, "Zhe Li");
}

TEST(MailTest, ParsesDatesWithOffsets) {
  auto d = parse_mail_date("Thu, 9 Jul 2026 19:25:12 +0800");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset_minutes, 480);
  EXPECT_EQ(d->epoch, 1783596312);  // 2026-07-09T11:25:12Z
  auto e = parse_mail_date("10 Aug 2026 20:20:57 -0130");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset_minutes, -90);
  EXPECT_FALSE(parse_mail_date("yesterday"));
}

// A hostile line of 100 KB: libstdc++'s std::regex recursed per character
// and the process died of SIGSEGV; the linear parsers must simply answer.
const std::string k_long(100 * 1024, 'a');

TEST(MailTest, LongLinesDoNotCrashTheParsers) {
  const auto date = parse_mail_date("Mon, 30 Nov 2026 23:40:46 +0100 " + k_long);
  ASSERT_TRUE(date);
  EXPECT_EQ(date->offset_minutes, 60);
  EXPECT_FALSE(parse_mail_date(k_long));
  EXPECT_EQ(decode_rfc2047("=?utf-8?q?" + k_long + "?="), k_long);
  EXPECT_EQ(decode_rfc2047("=?" + k_long), "=?" + k_long);
  const std::string mbox = "From: A <a@x>\nSubject: s\n\nFrom " + k_long + "\n";
  const auto messages = split_mbox(mbox, "x.mbox");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].body, "From " + k_long + "\n");
}

TEST(MailTest, ReadsSeparatorsLikeBefore) {
  const std::string tail = "\nFrom: A <a@x>\nSubject: s\n\nbody\n";
  for (const std::string separator :
       {"From 1a2b3c4d Mon Sep 17 00:00:00 2001", "From mboxrd@z Thu Jan  1 00:00:00 1970",
        "From git@z Thu Jan 1 00:00:00 1970 "}) {
    const auto messages = split_mbox(separator + tail + separator + tail, "x.mbox");
    EXPECT_EQ(messages.size(), 2u) << separator;
  }
  for (const std::string body_line : {"From here Mon Sep 17", "From x Sun Jan 199",
                                      "From  x Mon Jan 1 2001", "From x Mon Janu 2001"}) {
    const auto messages = split_mbox("From: A <a@x>\nSubject: s\n\n" + body_line + "\n", "x.mbox");
    ASSERT_EQ(messages.size(), 1u) << body_line;
    EXPECT_EQ(messages[0].body, body_line + "\n");
  }
}

TEST(MailTest, DecodesEncodedWordsAmongPlainText) {
  EXPECT_EQ(decode_rfc2047("a =?x?q?b?= =?x?Q?c?= d =?x?z?e?= =?utf-8*en?B?Zg==?="),
            "a bc d =?x?z?e?= f");
  EXPECT_EQ(decode_rfc2047("=?=?utf-8?q?x?="), "=?=?utf-8?q?x?=");
}

// An overlong header makes its message unreadable as a patch (its problem
// names the line); the mbox is still split, so a reply with one is skipped.
TEST(MailTest, AnOverlongHeaderIsTheMessagesProblemNamingTheLine) {
  const std::string mbox = "From: A <a@x>\nSubject: s\nDate: " + k_long + "\n\nbody\n";
  const auto messages = split_mbox(mbox, "big.mbox");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].problem.find("big.mbox:3: header 'Date' is longer than 65536"),
            std::string::npos)
      << messages[0].problem;
}

TEST(MailTest, SplitsAnMboxAndUnfoldsHeaders) {
  const std::string mbox =
      "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
      "From: A <a@x>\n"
      "Subject: [PATCH 1/2] first\n"
      " continued\n"
      "\n"
      "body one\n"
      "From this line on, the body mentions From at line start\n"
      "From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
      "From: B <b@x>\n"
      "Subject: second\n"
      "\n"
      "body two\n";
  const auto messages = split_mbox(mbox, "x.mbox");
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].header("subject").value(), "[PATCH 1/2] first continued");
  EXPECT_EQ(messages[0].body,
            "body one\nFrom this line on, the body mentions From at line start\n");
  EXPECT_EQ(messages[0].first_line, 1);
  EXPECT_EQ(messages[1].first_line, 8);
  EXPECT_EQ(messages[1].header("From").value(), "B <b@x>");
}

TEST(MailTest, UnescapesMboxrdFromLines) {
  const std::string mbox =
      "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
      "Subject: s\n"
      "\n"
      ">From the start\n"
      ">>From deeper\n";
  const auto messages = split_mbox(mbox, "x.mbox");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].body, "From the start\n>From deeper\n");
}

// MIME as git mailinfo reads it, decoded by GMime: every part in order,
// each from its transfer encoding; a signature part is left out.
TEST(MailTest, ReadsEveryPartOfAMultipartMail) {
  const std::string mail =
      "From: A <a@x>\n"
      "Subject: s\n"
      "Content-Type: multipart/signed; boundary=\"outer\"; protocol=\"application/pgp-signature\"\n"
      "\n"
      "preamble\n"
      "--outer\n"
      "Content-Type: multipart/mixed; boundary=\"inner\"\n"
      "\n"
      "--inner\n"
      "Content-Type: text/plain; charset=ISO-8859-1\n"
      "Content-Transfer-Encoding: quoted-printable\n"
      "\n"
      "Andr=E9 wrote =3D this\n"
      "--inner\n"
      "Content-Type: text/x-patch; name=\"0001.patch\"\n"
      "Content-Transfer-Encoding: base64\n"
      "\n"
      "ZGlmZiAtLWdpdCBhL3ggYi94Cg==\n"
      "--inner--\n"
      "--outer\n"
      "Content-Type: application/pgp-signature\n"
      "\n"
      "-----BEGIN PGP SIGNATURE-----\n"
      "--outer--\n";
  const auto messages = split_mbox(mail, "x.eml");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_TRUE(messages[0].multipart);
  EXPECT_EQ(messages[0].charset, "iso-8859-1");
  EXPECT_EQ(messages[0].body, "Andr\xE9 wrote = this\ndiff --git a/x b/x\n");
}

TEST(MailTest, ReadsMessageIdsAndLinks) {
  EXPECT_EQ(message_ids(" <a@b> <c.d@e>\n <bad id@x> <f@g"),
            (std::vector<std::string>{"a@b", "c.d@e"}));
  EXPECT_EQ(linked_message_ids("v6: https://lore.kernel.org/all/20260101-x-v6-0-abc@kernel.org/\n"
                               "Link: https://patch.msgid.link/1234.5%40y.org and "
                               "https://example.org/no/id/here"),
            (std::vector<std::string>{"20260101-x-v6-0-abc@kernel.org", "1234.5@y.org"}));
}

TEST(MailTest, DecodesQuotedPrintableBody) {
  const std::string mail =
      "Subject: s\n"
      "Content-Transfer-Encoding: quoted-printable\n"
      "\n"
      "a =3D b, long=\n"
      " line\n";
  const auto messages = split_mbox(mail, "x.eml");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].body, "a = b, long line\n");
}

TEST(MailTest, RejectsAFileWhoseLineBreaksWereLost) {
  const std::string flat =
      "From mboxrd@z Thu Jan 1 00:00:00 1970 Return-Path: X-Spam-Checker-Version: SpamAssassin "
      "3.4.0 (2014-02-07) on aws-us-west-2-korg-lkml-1.web.codeaurora.org Received: from kanga "
      "Subject: [PATCH v10 8/8] x86/string: extend memcpy_flushcache() fixed-size fastpaths";
  try {
    split_mbox(flat, "003.txt");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("003.txt:1:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no line breaks"), std::string::npos) << e.what();
  }
}

TEST(MailTest, RejectsTextThatIsNotMail) {
  try {
    split_mbox("[PATCH v6 0/8] mm: optimize\n\n[Li Zhe]\n", "000.txt");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("000.txt:1:"), std::string::npos) << e.what();
  }
}

TEST(MailTest, DateFieldsOutOfRangeAreUnreadable) {
  for (const char* date : {"Thu, 9 Jul 2026 24:25:12 +0800", "Thu, 32 Jul 2026 19:25:12 +0800",
                           "Thu, 0 Jul 2026 19:25:12 +0800", "Thu, 9 Jul 2026 19:60:12 +0800",
                           "Thu, 9 Jul 2026 19:25:61 +0800", "Thu, 9 Jul 1969 19:25:12 +0800",
                           "Thu, 9 Jul 2026 19:25:12 +2400", "Thu, 9 Jul 2026 19:25:12 -0099"}) {
    EXPECT_FALSE(parse_mail_date(date)) << date;
  }
  const auto edge = parse_mail_date("31 Dec 9999 23:59:60 -2359");
  ASSERT_TRUE(edge);
  EXPECT_EQ(edge->offset_minutes, -(23 * 60 + 59));
}

TEST(MailTest, DatesBeforeTheEpochAreUnreadable) {
  // Found by fuzz/mail_fields: 1970-01-01 00:00 in a zone east of UTC is a
  // negative time, which libgit2 writes and git fsck rejects (badDate).
  EXPECT_FALSE(parse_mail_date("Thu, 1 Jan 1970 00:00:00 +0100"));
  EXPECT_FALSE(parse_mail_date("1 Jan 1970 00:59 +0100"));
  const auto epoch = parse_mail_date("1 Jan 1970 01:00 +0100");
  ASSERT_TRUE(epoch);
  EXPECT_EQ(epoch->epoch, 0);
  EXPECT_TRUE(parse_mail_date("1 Jan 1970 00:00 -0100"));
}

}  // namespace
}  // namespace kseries
