// Fuzzes each mail field reader on its own, with the whole input as the
// field's value (a From:, Date:, Subject: or Content-Type: header, a message):
// RFC 2047 decoding, addresses, dates, subject prefixes, charsets and the
// commit text sanitiser.
#include "fuzz_input.h"
#include "series/mail.h"
#include "series/mail_text.h"
#include "series/subject.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kseries::fuzz::require;
  const std::string_view text = kseries::fuzz::text_of(data, size);
  const std::string decoded = kseries::decode_rfc2047(text);
  kseries::parse_address(text);
  if (const auto date = kseries::parse_mail_date(text)) {
    // git fsck rejects a negative time in a commit header.
    require(date->epoch >= 0 && date->offset_minutes > -24 * 60 && date->offset_minutes < 24 * 60);
  }
  kseries::fuzz::refusal_is_fine([&] { kseries::parse_subject(decoded, "fuzz:1"); });
  const auto charset = kseries::content_type_charset(text);
  const auto utf8 = kseries::to_utf8(text, charset);
  require(kseries::to_utf8(utf8.text, "utf-8").replaced == 0);
  std::vector<std::string> notes;
  for (const auto field : {kseries::CommitField::k_author_name, kseries::CommitField::k_subject,
                           kseries::CommitField::k_message}) {
    kseries::fuzz::refusal_is_fine([&] {
      const std::string clean = kseries::commit_text(decoded, field, charset, {"fuzz", 1}, notes);
      require(clean.find('\0') == std::string::npos);
      require(field == kseries::CommitField::k_message ||
              clean.find_first_of("\r\n") == std::string::npos);
    });
  }
  return 0;
}
