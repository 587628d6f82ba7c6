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
  std::string body;                                          // transfer-decoded

  // First header with this name (case-insensitive), raw (not 2047-decoded).
  std::optional<std::string> header(std::string_view name) const;
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
// "From <token> <weekday> <month> ..." separator lines. A text with no
// separator but with headers is one message. Throws Error(k_usage) naming
// `file` and the line when a message has no header/body boundary or a
// header is longer than k_max_header_bytes. Every parser here runs in linear
// time on lines of any length (no std::regex: libstdc++'s recurses per
// character and overflows the stack on a 40 KB line).
std::vector<MailMessage> split_mbox(std::string_view text, const std::filesystem::path& file);

// Decodes RFC 2047 encoded words (=?UTF-8?q?...?=, =?iso-8859-1?b?...?=):
// each word becomes UTF-8 from its charset (to_utf8 in mail_text.h); plain
// text between them passes through as it is. What a conversion did to a
// word's bytes goes to `notes`, when given.
std::string decode_rfc2047(std::string_view text, std::vector<std::string>* notes = nullptr);

// "Li Zhe <lizhe.67@bytedance.com>", "\"Zhe, Li\" <x@y>", "x@y (Li Zhe)";
// decoded as decode_rfc2047 does, notes included.
std::optional<Person> parse_address(std::string_view text,
                                    std::vector<std::string>* notes = nullptr);

// "Thu, 9 Jul 2026 19:25:12 +0800" (weekday optional). nullopt when it is
// not a date or a field is out of range (day 1-31, year from 1970, hour
// 0-23, minute 0-59, second 0-60, zone within +-23:59), or the time is
// before 1970-01-01 00:00 UTC.
std::optional<MailTime> parse_mail_date(std::string_view text);

}  // namespace kseries
