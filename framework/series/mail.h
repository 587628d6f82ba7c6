#pragma once
// RFC 5322 mail pieces as they appear in `git format-patch` output and lore
// mboxes: splitting an mbox, unfolding headers, RFC 2047 encoded words,
// addresses and dates.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kseries {

struct MailMessage {
  int first_line = 1;  // 1-based line of the "From " separator (or first header)
  int body_line = 1;   // 1-based line where the body starts
  std::vector<std::pair<std::string, std::string>> headers;  // unfolded, raw
  // The body as git mailinfo reads it (series/mime.h): the parts of a MIME
  // multipart mail in order, each decoded from quoted-printable or base64.
  std::string body;
  std::string charset;  // the (first) body part's charset= parameter, "" none
  bool multipart = false;
  // Why the message cannot be read as a patch (a header longer than
  // k_max_header_bytes, a line that is not a header, a NUL in a header),
  // naming file and line; "" when it can. A reply is recognised from its
  // headers and skipped before this matters.
  std::string problem;

  // First header with this name (case-insensitive), raw (not 2047-decoded).
  std::optional<std::string> header(std::string_view name) const;
  // The Subject: decoded (RFC 2047), "" when there is none.
  std::string subject() const;
};

struct Person {
  std::string name;
  std::string email;
};

struct MailTime {
  std::int64_t epoch = 0;  // seconds since 1970 UTC
  int offset_minutes = 0;  // +0800 -> 480
};

// A header (name and unfolded value) longer than this is refused: honest
// To:/Cc: lists of a large series stay far below it.
inline constexpr std::size_t k_max_header_bytes = 64 * 1024;

// Splits an mbox (format-patch --stdout, b4, lore "mboxrd") at its
// "From <token> <weekday> <month> ..." separator lines and reads each
// message with GMime (series/mime.h). A text with no separator but with
// headers is one message. Throws Error(k_usage) naming `file` and the line
// when the file is not mail at all (no line breaks, no header where the
// first message starts); what is wrong with one message of many goes to
// its `problem`. Every parser here runs in linear time on lines of any
// length (no std::regex: libstdc++'s recurses per character and overflows
// the stack on a 40 KB line).
std::vector<MailMessage> split_mbox(std::string_view text, const std::filesystem::path& file);

// Decodes RFC 2047 encoded words (=?UTF-8?q?...?=, =?iso-8859-1?b?...?=)
// with GMime: each word becomes UTF-8 from its charset; raw bytes between
// them stay as they are (the commit text checks read them, mail_text.h).
std::string decode_rfc2047(std::string_view text);

// The author git am records for a From: value ("Li Zhe <lizhe.67@bytedance.com>",
// "\"Zhe, Li\" <x@y>", "x@y (Li Zhe)"), parsed and decoded by GMime; as
// git mailinfo's get_sane_name, a name shorter than 3 or longer than 60
// bytes, or holding '@', '<' or '>', is replaced by the email address.
// nullopt when there is no address.
std::optional<Person> parse_address(std::string_view text);

// The message-ids ("<id>", returned without the brackets) of a Message-ID:,
// In-Reply-To: or References: value, in order; at most 100, each at most
// 998 bytes, anything else skipped.
std::vector<std::string> message_ids(std::string_view value);

// The message-ids a text links by URL: a path component holding '@' (or its
// %40) of an http(s) URL, as lore and patch.msgid.link write them; at most 100.
std::vector<std::string> linked_message_ids(std::string_view text);

// "Thu, 9 Jul 2026 19:25:12 +0800" (weekday optional). nullopt when it is
// not a date or a field is out of range (day 1-31, year from 1970, hour
// 0-23, minute 0-59, second 0-60, zone within +-23:59), or the time is
// before 1970-01-01 00:00 UTC.
std::optional<MailTime> parse_mail_date(std::string_view text);

}  // namespace kseries
