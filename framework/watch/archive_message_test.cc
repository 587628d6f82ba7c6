#include "watch/archive_message.h"

#include <gtest/gtest.h>

namespace kseries::watch {
namespace {

TEST(ArchiveMessage, ReadsTheHeadersAGitEpochHolds) {
  const auto m = parse_archive_message(
      "From: =?UTF-8?q?J=C3=B6rg_R=C3=B6del?= <joro@example.org>\n"
      "Subject: [PATCH v2 0/3] dax: fix the\n"
      " folded subject\n"
      "Date: Thu, 9 Jul 2026 19:25:12 +0800\n"
      "Message-Id: <cover-2@example.org>\n"
      "In-Reply-To: <cover-1@example.org>\n"
      "References: <root@example.org> <cover-1@example.org>\n"
      "\n"
      "body\n");
  EXPECT_EQ(m.message_id, "cover-2@example.org");
  EXPECT_EQ(m.subject, "[PATCH v2 0/3] dax: fix the folded subject");
  EXPECT_EQ(m.author_name,
            "J\xC3\xB6rg R\xC3\xB6"
            "del");
  EXPECT_EQ(m.author_email, "joro@example.org");
  EXPECT_EQ(m.date, "2026-07-09T11:25:12Z");
  EXPECT_EQ(m.in_reply_to, "cover-1@example.org");
  EXPECT_EQ(m.references, (std::vector<std::string>{"root@example.org", "cover-1@example.org"}));
}

TEST(ArchiveMessage, HostileFieldsAreCleanedOrDropped) {
  const auto m = parse_archive_message(
      "From ignored Mon Sep 17 00:00:00 2001\n"
      "From: \"a,b <c>\" <x@y>, other@example.org\n"
      "Subject: =?UTF-8?q?line=0Abreak=1B[2K?=\n"
      "Message-Id: <has space@x>\n"
      "In-Reply-To: <a/b@x>\n");
  EXPECT_EQ(m.author_name, "a,b <c>");  // a name, not an address
  EXPECT_EQ(m.author_email, "x@y");
  EXPECT_EQ(m.subject.find('\n'), std::string::npos);
  EXPECT_EQ(m.subject.find('\x1b'), std::string::npos);
  EXPECT_EQ(m.message_id, "");  // no space in a message-id we keep
  EXPECT_EQ(m.in_reply_to, "");
}

TEST(ArchiveMessage, OnlyTheHeaderBlockIsRead) {
  const auto m = parse_archive_message(
      "Subject: [PATCH] real\nMessage-Id: <a@b>\n\nSubject: [PATCH] forged\n");
  EXPECT_EQ(m.subject, "[PATCH] real");
  std::string huge = "Subject: [PATCH] x\nX-Junk: " + std::string(1 << 20, 'a') + "\n\n";
  EXPECT_NO_THROW(parse_archive_message(huge));
}

TEST(ArchiveMessage, ALongThreadKeepsItsRootAndItsParent) {
  std::string refs;
  for (int i = 0; i < 200; ++i) {
    refs += " <m" + std::to_string(i) + "@x>";
  }
  const auto m = parse_archive_message("References:" + refs + "\nIn-Reply-To: <m199@x>\n\n");
  ASSERT_EQ(m.references.size(), k_max_references);
  EXPECT_EQ(m.references.front(), "m0@x");
  EXPECT_EQ(m.references.back(), "m199@x");
}

}  // namespace
}  // namespace kseries::watch
