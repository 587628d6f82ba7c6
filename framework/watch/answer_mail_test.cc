#include "watch/answer_mail.h"

#include <gtest/gtest.h>

namespace kseries::watch {
namespace {

AnswerFacts facts() {
  AnswerFacts f;
  f.to_name = "Toy Author";
  f.to_email = "toy@example.com";
  f.cc = "toy@lists.example.org";
  f.subject = "[PATCH v2 0/2] toy: the toy series";
  f.in_reply_to = "cover-v2@example.com";
  f.message_id = "kseries-watch-x@kseries.invalid";
  f.date = "Wed, 02 Dec 2026 07:00:00 +0000";
  f.identity = "change-id x v2";
  f.tested = "2 patch(es) on base abc";
  f.verdict = "PASS, warning: toy demo fsdax-dev m +16.1 % slower than v1";
  f.warnings = {"toy demo fsdax-dev m +16.1 % slower than v1"};
  f.reproduce = {"kseries gate --series x"};
  f.run_dir = "/runs/1";
  return f;
}

TEST(AnswerMailTest, RepliesToTheCoverLetter) {
  const std::string mail = compose_answer(facts());
  EXPECT_NE(mail.find("\nTo: \"Toy Author\" <toy@example.com>\n"), std::string::npos) << mail;
  EXPECT_NE(mail.find("\nCc: <toy@lists.example.org>\n"), std::string::npos);
  EXPECT_NE(mail.find("\nSubject: Re: [PATCH v2 0/2] toy: the toy series\n"), std::string::npos);
  EXPECT_NE(
      mail.find("\nIn-Reply-To: <cover-v2@example.com>\nReferences: <cover-v2@example.com>\n"),
      std::string::npos);
  // The finding first, then what was tested, the verdict, reproduce.
  const auto warning = mail.find("WARNING: this revision is slower");
  const auto verdict = mail.find("verdict: PASS, warning");
  const auto reproduce = mail.find("reproduce:\n  kseries gate --series x\n");
  EXPECT_LT(mail.find("\n\nHi Toy,\n"), warning);
  EXPECT_LT(warning, verdict);
  EXPECT_LT(verdict, reproduce);
  EXPECT_NE(reproduce, std::string::npos);
}

TEST(AnswerMailTest, HostileHeaderTextStaysOnOneLine) {
  AnswerFacts f = facts();
  f.to_name = "Evil\r\nBcc: victim@example.com";
  f.subject = "x\nBcc: victim@example.com";
  f.to_email = "a@b>, <c@d";
  const std::string mail = compose_answer(f);
  EXPECT_EQ(mail.find("\nBcc:"), std::string::npos) << mail;
  EXPECT_NE(mail.find("\nTo: \"Evil  Bcc: victim@example.com\" <a@b__"), std::string::npos) << mail;
}

TEST(AnswerMailTest, EncodesANonAsciiName) {
  AnswerFacts f = facts();
  f.to_name = "Zhe Li \xe6\x9d\x8e";
  const std::string mail = compose_answer(f);
  EXPECT_NE(mail.find("\nTo: =?UTF-8?B?"), std::string::npos) << mail;
}

}  // namespace
}  // namespace kseries::watch
