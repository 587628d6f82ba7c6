#include "watch/answer_mail.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "watch/archive_message.h"

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
  f.run = "20261202T070000Z-watch-gate/";
  return f;
}

std::string head_of(const std::string& mail) { return mail.substr(0, mail.find("\n\n") + 1); }

TEST(AnswerMailTest, RepliesToTheCoverLetter) {
  AnswerFacts f = facts();
  f.references = {"cover-v1@example.com"};
  const std::string mail = compose_answer(f);
  const std::string head = head_of(mail);
  EXPECT_NE(head.find("\nTo: Toy Author <toy@example.com>\n"), std::string::npos) << mail;
  EXPECT_NE(head.find("\nCc: toy@lists.example.org\n"), std::string::npos) << mail;
  EXPECT_NE(head.find("\nSubject: Re: [PATCH v2 0/2] toy: the toy series\n"), std::string::npos);
  EXPECT_NE(head.find("\nIn-Reply-To: <cover-v2@example.com>\n"), std::string::npos) << head;
  EXPECT_NE(head.find("\nReferences: <cover-v1@example.com> <cover-v2@example.com>\n"),
            std::string::npos)
      << head;
  // The finding first, then what was tested, the verdict, reproduce, the run.
  const auto warning = mail.find("WARNING: this revision is slower");
  const auto verdict = mail.find("verdict: PASS, warning");
  const auto reproduce = mail.find("reproduce:\n  kseries gate --series x\n");
  EXPECT_LT(mail.find("\n\nHi Toy,\n"), warning);
  EXPECT_LT(warning, verdict);
  EXPECT_LT(verdict, reproduce);
  EXPECT_NE(reproduce, std::string::npos);
  EXPECT_NE(mail.find("\nrun: 20261202T070000Z-watch-gate/\n"), std::string::npos) << mail;
  // Read back as a mail reader would.
  const auto back = parse_archive_message(mail);
  EXPECT_EQ(back.message_id, "kseries-watch-x@kseries.invalid");
  EXPECT_EQ(back.in_reply_to, "cover-v2@example.com");
}

// A message id the answer is sent in reply to is one its In-Reply-To reads
// back as; the others are not sane, and no answer names them (the inbox
// fuzzer: GMime writes "a@example..com" as "a@example").
TEST(AnswerMailTest, EverySaneIdReadsBackAsTheAnswersInReplyTo) {
  for (const std::string id :
       {"a..b@example.com", ".a@example.com", "a.@example.com", "a@.example.com", "a.b@example.com",
        "a@b", "a-b_c+d=e@x.y", "a@example.com.", "a@example..com", "a@x...y", "a@", "@x", "a@b@c",
        "a;b@c"}) {
    AnswerFacts f = facts();
    f.in_reply_to = id;
    f.references.clear();
    const auto back = parse_archive_message(compose_answer(f));
    EXPECT_EQ(back.in_reply_to == id, sane_message_id(id)) << id << " -> " << back.in_reply_to;
  }
  EXPECT_FALSE(sane_message_id("a@example..com"));
  EXPECT_FALSE(sane_message_id("a@example.com."));
  EXPECT_TRUE(sane_message_id("a..b@example.com"));
}

TEST(AnswerMailTest, HostileHeaderTextStaysOnOneLine) {
  AnswerFacts f = facts();
  f.to_name = "Evil\r\nBcc: victim@example.com";
  f.subject = "x\nBcc: victim@example.com";
  const std::string head = head_of(compose_answer(f));
  EXPECT_EQ(head.find("\nBcc:"), std::string::npos) << head;
  EXPECT_NE(head.find("\nTo: \"Evil  Bcc: victim@example.com\" <toy@example.com>\n"),
            std::string::npos)
      << head;
}

// Issue 50: "a@b>, <c@d" was written as one invalid address "<a@b__ _c@d>".
TEST(AnswerMailTest, AnAddressThatIsNotOneMailboxIsNotAddressed) {
  for (const char* bad : {"a@b>, <c@d", "a@b, c@d", "a b@c", "<a@b>", "a@b@c", "", "a@"}) {
    AnswerFacts f = facts();
    f.to_email = bad;
    const std::string mail = compose_answer(f);
    const std::string head = head_of(mail);
    EXPECT_EQ(head.find("\nCc:"), std::string::npos) << bad << "\n" << head;
    EXPECT_NE(head.find("\nTo: toy@lists.example.org\n"), std::string::npos) << bad << "\n" << head;
    EXPECT_NE(mail.find("is not one valid mail address"), std::string::npos) << bad;
  }
  AnswerFacts f = facts();
  f.to_email = "a@b, c@d";
  f.cc = "";
  const std::string mail = compose_answer(f);
  EXPECT_NE(mail.find("\nTo: undisclosed-recipients: ;\n"), std::string::npos) << mail;
}

// Issue 50: a long non-ASCII name was cut inside a character before being
// encoded; GMime's encoded words must decode to whole characters.
TEST(AnswerMailTest, ANonAsciiNameIsEncodedWhole) {
  AnswerFacts f = facts();
  f.to_name.clear();
  for (int i = 0; i < 100; ++i) {
    f.to_name += "\xe6\x9d\x8e";  // 300 bytes: cut to 200 for the header
  }
  const std::string mail = compose_answer(f);
  // The To header as GMime folds it: up to the next line that is no
  // continuation.
  const auto start = mail.find("\nTo:") + 4;
  auto end = start;
  do {
    end = mail.find('\n', end + 1);
  } while (end != std::string::npos && (mail[end + 1] == ' ' || mail[end + 1] == '\t'));
  const std::string to = mail.substr(start, end - start);
  EXPECT_NE(to.find("=?UTF-8?b?"), std::string::npos) << mail;
  EXPECT_TRUE(std::all_of(to.begin(), to.end(), [](char c) { return (c & 0x80) == 0; })) << to;
  const auto back = parse_archive_message("From:" + to + "\n\n");
  std::string expected;
  for (int i = 0; i < 66; ++i) {
    expected += "\xe6\x9d\x8e";
  }
  EXPECT_EQ(back.author_name, expected);
  EXPECT_EQ(back.author_email, "toy@example.com");
}

TEST(AnswerMailTest, FromIsCheckedAsAnAddressList) {
  EXPECT_TRUE(valid_from("kseries <kseries@invalid>"));
  EXPECT_TRUE(valid_from("CI Bot <ci@example.org>"));
  EXPECT_FALSE(valid_from("kseries"));
  EXPECT_FALSE(valid_from("a@b\nBcc: c@d"));
}

}  // namespace
}  // namespace kseries::watch
