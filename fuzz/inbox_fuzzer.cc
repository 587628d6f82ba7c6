// Fuzzes what `kseries watch` and `--series` read from an inbox and its
// users: the Atom feed (parse_feed), a --series argument (parse_series_spec)
// and the answer mail built from a feed entry (compose_answer): whatever
// the feed holds, the answer's headers stay the ones kseries writes, one
// line each.
#include <string>

#include "fuzz_input.h"
#include "series/series_spec.h"
#include "watch/answer_mail.h"
#include "watch/inbox_feed.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kseries::fuzz::refusal_is_fine;
  using kseries::fuzz::require;
  const std::string_view text = kseries::fuzz::text_of(data, size);
  refusal_is_fine([&] {
    const auto feed = kseries::watch::parse_feed(text, "http://127.0.0.1:8080/toy");
    for (const auto& entry : feed.revisions) {
      for (const char c : entry.message_id) {
        require(static_cast<unsigned char>(c) > 0x20 && c != '/' && c != '<' && c != '>');
      }
      kseries::watch::AnswerFacts facts;
      facts.to_name = entry.author_name;
      facts.to_email = entry.author_email;
      facts.cc = feed.list_address;
      facts.subject = entry.title;
      facts.in_reply_to = entry.message_id;
      facts.message_id = "x@kseries.invalid";
      const std::string mail = kseries::watch::compose_answer(facts);
      const std::string head = mail.substr(0, mail.find("\n\n"));
      std::size_t lines = 1;
      for (const char c : head) {
        lines += c == '\n' ? 1 : 0;
        require(c != '\r');
      }
      require(lines == (feed.list_address.empty() ? 11u : 12u));
    }
  });
  if (size <= 600) {
    refusal_is_fine([&] { kseries::parse_series_spec(text); });
  }
  return 0;
}
