#include "series/patch_mail.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/patch_text.h"

namespace kseries {
namespace {

PatchMail parse_one(const std::string& text) {
  const auto messages = split_mbox(text, "t.patch");
  EXPECT_EQ(messages.size(), 1u);
  return parse_patch_mail(messages.at(0), "t.patch");
}

TEST(PatchMailTest, ParsesAuthorDateSubjectBodyDiffAndBase) {
  testing::PatchText text;
  text.subject =
      "[PATCH v6 2/8] mm: factor zone-device page init helpers out of\n"
      " __init_zone_device_page";
  text.base_commit = "a37409fe4ed9764415b222248aba3dd2ec461db1";
  const auto patch = parse_one(text.render());
  EXPECT_EQ(patch.author.name, "Li Zhe");
  EXPECT_EQ(patch.author.email, "lizhe.67@bytedance.com");
  EXPECT_EQ(patch.date.offset_minutes, 480);
  EXPECT_EQ(patch.subject.revision, 6);
  EXPECT_EQ(patch.subject.index, 2);
  EXPECT_EQ(patch.subject.title,
            "mm: factor zone-device page init helpers out of __init_zone_device_page");
  EXPECT_EQ(patch.body, "Explain the change.\n\nSigned-off-by: Li Zhe <lizhe.67@bytedance.com>\n");
  EXPECT_EQ(patch.diff, text.diff);
  EXPECT_EQ(patch.diff_line, 14);
  ASSERT_TRUE(patch.base_commit);
  EXPECT_EQ(*patch.base_commit, "a37409fe4ed9764415b222248aba3dd2ec461db1");
  EXPECT_EQ(patch.commit_message(),
            "mm: factor zone-device page init helpers out of __init_zone_device_page\n\n"
            "Explain the change.\n\nSigned-off-by: Li Zhe <lizhe.67@bytedance.com>\n");
}

TEST(PatchMailTest, EncodedAuthorIsDecoded) {
  testing::PatchText text;
  text.from = "=?UTF-8?q?J=C3=B6rg=20R=C3=B6del?= <joro@8bytes.org>";
  const auto patch = parse_one(text.render());
  EXPECT_EQ(patch.author.name,
            "J\xC3\xB6rg R\xC3\xB6"
            "del");
}

TEST(PatchMailTest, InBodyFromOverridesTheSender) {
  testing::PatchText text;
  text.from = "Sender Person <sender@example.com>";
  text.body = "From: Real Author <real@example.com>\n\nThe message.\n";
  const auto patch = parse_one(text.render());
  EXPECT_EQ(patch.author.email, "real@example.com");
  EXPECT_EQ(patch.body, "The message.\n");
}

TEST(PatchMailTest, PrerequisitePatchIdsAreRead) {
  testing::PatchText text;
  text.base_commit =
      "a37409fe4ed9764415b222248aba3dd2ec461db1\n"
      "prerequisite-patch-id: 1234567890123456789012345678901234567890";
  const auto patch = parse_one(text.render());
  ASSERT_EQ(patch.prerequisite_patch_ids.size(), 1u);
  EXPECT_EQ(patch.prerequisite_patch_ids[0], "1234567890123456789012345678901234567890");
  EXPECT_EQ(patch.diff, text.diff);
}

// libgit2 1.5 reads an empty new file at the end of a diff only when
// format-patch's "-- " line follows it: the diff handed to it keeps one.
TEST(PatchMailTest, ADiffEndingInAnEmptyNewFileKeepsASignatureLine) {
  testing::PatchText text;
  const std::string hunks = text.diff;
  text.diff += "diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000..e69de29\n";
  EXPECT_EQ(parse_one(text.render()).diff, text.diff + "-- \n");
  text.diff = hunks;
  EXPECT_EQ(parse_one(text.render()).diff, hunks);
}

TEST(PatchMailTest, MessageWithoutDiffHasEmptyDiff) {
  testing::PatchText text;
  text.diff.clear();
  const auto patch = parse_one(text.render());
  EXPECT_TRUE(patch.diff.empty());
  EXPECT_EQ(patch.diff_line, 0);
}

TEST(PatchMailTest, MissingDateNamesTheFileAndLine) {
  const std::string text =
      "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
      "From: A <a@x>\nSubject: [PATCH] s\n\nbody\n";
  try {
    parse_one(text);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.patch:1: message '[PATCH] s' has no readable Date"),
              std::string::npos)
        << e.what();
  }
}

TEST(PatchMailTest, LongMessageLinesAreReadOrRefusedNamingTheLine) {
  // 50 KB lines starting with "From " killed the old std::regex parser.
  testing::PatchText text;
  text.body = "From " + std::string(50 * 1024, 'x') + "\n";
  EXPECT_EQ(parse_one(text.render()).body, text.body);
  text.body = "Fine.\n\n" + std::string(k_max_message_line_bytes + 1, 'x') + "\n";
  try {
    parse_one(text.render());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.patch:8: line is longer than 65536"), std::string::npos)
        << e.what();
  }
}

TEST(PatchMailTest, SubjectNumbersOutOfRangeNameTheFileAndLine) {
  testing::PatchText text;
  text.subject = "[PATCH 1/99999999999] s";
  try {
    parse_one(text.render());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.patch:1: subject prefix '1/99999999999'"),
              std::string::npos)
        << e.what();
  }
  text.subject = "[PATCH 1/1] s";
  text.body = "Subject: [PATCH v1234 1/1] s\n\nbody\n";
  try {
    parse_one(text.render());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.patch:6: subject prefix 'v1234'"), std::string::npos)
        << e.what();
  }
}

std::string refusal(const std::string& text) {
  try {
    parse_one(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(PatchMailTest, ForgedCommitHeadersAreRefusedNamingTheLine) {
  testing::PatchText text;
  text.from = "=?utf-8?q?Evil=0Acommitter_Mallory?= <e@x>";
  EXPECT_NE(refusal(text.render()).find("t.patch:1: the author name contains a line break"),
            std::string::npos);
  // An encoded '<' ends the name where GMime reads the address: no line
  // of it reaches the commit (git am would take the address as the name).
  text.from = "=?utf-8?q?Evil_<e@x>_0_+0000=0Agpgsig_x?= <e@x>";
  const auto split = parse_one(text.render());
  EXPECT_EQ(split.author.name.find('\n'), std::string::npos) << split.author.name;
  EXPECT_EQ(split.author.email, "e@x");
  text.from = "Li Zhe <lizhe.67@bytedance.com>";
  text.body = "From: =?utf-8?q?Evil=0Aparent_0000?= <e@x>\n\nbody\n";
  EXPECT_NE(refusal(text.render()).find("t.patch:6: the author name contains a line break"),
            std::string::npos);
  text.body = "Fine.\n";
  text.subject = "[PATCH] =?utf-8?q?one=0Atwo?=";
  EXPECT_NE(refusal(text.render()).find("t.patch:1: the subject contains a line break"),
            std::string::npos);
  text.subject = "[PATCH] s";
  text.body = std::string("Fine.\nNot\0fine.\n", 16);
  EXPECT_NE(refusal(text.render()).find("t.patch:7: the commit message contains a NUL byte"),
            std::string::npos);
}

// As git am: raw header bytes and a body without a charset declare none, so
// what is not UTF-8 reads as Latin-1 (noted); a declared charset is
// converted; bytes that break a declared UTF-8 become U+FFFD (noted).
TEST(PatchMailTest, Latin1IsConvertedAsGitAmDoesAndBadUtf8Replaced) {
  testing::PatchText text;
  text.subject = "[PATCH] caf\xE9 =?iso-8859-1?q?=E9t=E9?=";
  text.from = "Andr\xE9 <a@x>";
  text.body = "Andr\xE9 wrote it.\n";
  const std::string undeclared = text.render();
  const auto latin1 = parse_one(undeclared);
  EXPECT_EQ(latin1.subject.title, "caf\xC3\xA9 \xC3\xA9t\xC3\xA9");
  EXPECT_EQ(latin1.author.name, "Andr\xC3\xA9");
  EXPECT_EQ(latin1.body, "Andr\xC3\xA9 wrote it.\n");
  ASSERT_EQ(latin1.notes.size(), 3u);
  EXPECT_EQ(latin1.notes[0],
            "t.patch:1: the subject: 1 byte(s) not UTF-8 and no charset declared: read as "
            "Latin-1, as git am does");
  EXPECT_NE(latin1.notes[1].find("t.patch:1: the author name: 1 byte(s) not UTF-8"),
            std::string::npos);
  EXPECT_NE(latin1.notes[2].find("t.patch:6: the commit message: 1 byte(s) not UTF-8"),
            std::string::npos);
  // Declared Latin-1: the message is converted, as git mailinfo does.
  const auto at = undeclared.find("Subject:");
  const auto declared =
      parse_one(undeclared.substr(0, at) + "Content-Type: text/plain; charset=ISO-8859-1\n" +
                undeclared.substr(at));
  EXPECT_EQ(declared.body, "Andr\xC3\xA9 wrote it.\n");
  EXPECT_EQ(declared.notes.size(), 2u);  // the raw subject and author bytes only
  // Declared UTF-8 that is not: U+FFFD, noted at the line.
  const auto broken =
      parse_one(undeclared.substr(0, at) + "Content-Type: text/plain; charset=utf-8\n" +
                undeclared.substr(at));
  EXPECT_EQ(broken.body, "Andr\xEF\xBF\xBD wrote it.\n");
  ASSERT_EQ(broken.notes.size(), 3u);
  EXPECT_EQ(broken.notes[2],
            "t.patch:7: the commit message: 1 byte(s) not valid in the declared charset "
            "'utf-8': replaced with U+FFFD");
}

}  // namespace
}  // namespace kseries
