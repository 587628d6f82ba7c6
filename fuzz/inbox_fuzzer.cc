// Fuzzes what `kseries watch` and `--series` read from an inbox and its
// users: the Atom feed (parse_feed), an archive message's headers
// (parse_archive_message: the file `m` of an epoch's commit), the inbox's
// manifest (parse_manifest), a --series argument (parse_series_spec), and
// the answer mail built from what they hold (compose_answer): whatever the
// input holds, the answer's headers are only the ones kseries writes, and
// it reads back as a reply to the message.
#include <string>

#include "fuzz_input.h"
#include "series/series_spec.h"
#include "watch/answer_mail.h"
#include "watch/archive_message.h"
#include "watch/inbox_archive.h"
#include "watch/inbox_feed.h"
#include "watch/intake.h"

namespace {

using kseries::fuzz::require;

bool our_header(std::string_view line) {
  for (const char* name : {"From: ", "To: ", "Cc: ", "Subject: ", "Date: ", "Message-Id: ",
                           "In-Reply-To: ", "References: ", "MIME-Version: ", "Content-Type: ",
                           "Content-Transfer-Encoding: ", "X-Mailer: "}) {
    const std::string_view n(name);
    // "To:" alone is ours too: GMime folds a long encoded name onto the
    // next line, the value's first line empty (RFC 5322 folding).
    if (line.substr(0, n.size()) == n || line == n.substr(0, n.size() - 1)) {
      return true;
    }
  }
  return !line.empty() && (line[0] == ' ' || line[0] == '\t');  // a folded line
}

void answer(const kseries::watch::ArchiveMessage& m, const std::string& list) {
  kseries::watch::AnswerFacts facts;
  facts.to_name = m.author_name;
  facts.to_email = m.author_email;
  facts.cc = list;
  facts.subject = m.subject;
  facts.in_reply_to = m.message_id;
  facts.references = m.references;
  facts.message_id = "x@kseries.invalid";
  const std::string mail = kseries::watch::compose_answer(facts);
  const std::string head = mail.substr(0, mail.find("\n\n") + 1);
  std::size_t start = 0;
  for (std::size_t end = head.find('\n'); end != std::string::npos;
       start = end + 1, end = head.find('\n', start)) {
    const std::string_view line(head.data() + start, end - start);
    require(line.find('\r') == std::string_view::npos);
    require(our_header(line));
  }
  const auto back = kseries::watch::parse_archive_message(mail);
  require(back.message_id == "x@kseries.invalid");
  require(back.in_reply_to == m.message_id);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kseries::fuzz::refusal_is_fine;
  const std::string_view text = kseries::fuzz::text_of(data, size);
  const auto none = [](const std::string&) {
    return std::optional<kseries::watch::KnownRevision>();
  };
  refusal_is_fine([&] {
    const auto feed = kseries::watch::parse_feed(text, "http://127.0.0.1:8080/toy");
    for (const auto& m : feed.messages) {
      require(kseries::watch::sane_message_id(m.message_id));
      kseries::watch::classify_message(m, none);
      answer(m, feed.list_address);
    }
  });
  refusal_is_fine([&] {
    const auto m = kseries::watch::parse_archive_message(text);
    require(m.message_id.empty() || kseries::watch::sane_message_id(m.message_id));
    kseries::watch::classify_message(m, none);
    if (!m.message_id.empty()) {
      answer(m, "list@example.org");
    }
  });
  refusal_is_fine([&] {
    for (const auto& epoch : kseries::watch::parse_manifest(text, "http://127.0.0.1:8080/toy")) {
      require(epoch.url.rfind("http://127.0.0.1:8080/toy/git/", 0) == 0);
    }
  });
  if (size <= 600) {
    refusal_is_fine([&] { kseries::parse_series_spec(text); });
  }
  return 0;
}
