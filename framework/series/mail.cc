#include "series/mail.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>
#include <initializer_list>

#include "core/error.h"
#include "core/text.h"
#include "series/mail_text.h"

namespace kseries {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Consumes `word` (case-sensitive) at `pos` when one of `words` is there.
bool take_word(std::string_view line, size_t& pos, std::initializer_list<std::string_view> words) {
  for (const auto word : words) {
    if (line.substr(pos, word.size()) == word) {
      pos += word.size();
      return true;
    }
  }
  return false;
}

// Consumes one or more spaces at `pos`.
bool take_spaces(std::string_view line, size_t& pos) {
  const size_t begin = pos;
  while (pos < line.size() && line[pos] == ' ') {
    ++pos;
  }
  return pos > begin;
}

// "From 1a2b... Mon Sep 17 00:00:00 2001", "From mboxrd@z Thu Jan  1 00:00:00 1970",
// "From git@z Thu Jan 1 00:00:00 1970": "From <token> <weekday> <month> ... <year>".
// Scanned once, left to right: a hostile line of any length costs linear time
// (libstdc++'s std::regex recursed per character and overflowed the stack).
bool is_separator(std::string_view line) {
  if (!starts_with(line, "From ")) {
    return false;
  }
  size_t pos = 5;
  const size_t token = pos;
  while (pos < line.size() && !is_space(line[pos])) {
    ++pos;
  }
  if (pos == token || !take_spaces(line, pos) ||
      !take_word(line, pos, {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}) ||
      !take_spaces(line, pos) ||
      !take_word(
          line, pos,
          {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}) ||
      pos >= line.size() || line[pos] != ' ') {
    return false;
  }
  std::string_view rest = line.substr(pos + 1);
  while (!rest.empty() && is_space(rest.back())) {
    rest.remove_suffix(1);
  }
  return rest.size() >= 4 && std::all_of(rest.end() - 4, rest.end(), is_digit);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode_base64(std::string_view in) {
  static const std::string k_alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int bits = 0;
  unsigned value = 0;
  for (char c : in) {
    auto pos = k_alphabet.find(c);
    if (pos == std::string::npos) {
      continue;  // '=', line breaks
    }
    value = (value << 6) | static_cast<unsigned>(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xff);
    }
  }
  return out;
}

// Quoted-printable; in headers (2047 Q) '_' is a space.
std::string decode_quoted_printable(std::string_view in, bool header) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '_' && header) {
      out += ' ';
    } else if (c == '=' && i + 2 < in.size() + 0 && hex_value(in[i + 1]) >= 0 &&
               i + 2 < in.size() && hex_value(in[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(in[i + 1]) * 16 + hex_value(in[i + 2]));
      i += 2;
    } else if (c == '=' && !header && i + 1 < in.size() && in[i + 1] == '\n') {
      ++i;  // soft line break
    } else if (c == '=' && !header && i + 2 < in.size() && in[i + 1] == '\r' && in[i + 2] == '\n') {
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string decode_body(std::string_view body, std::string_view encoding) {
  const std::string enc = to_lower(trim(encoding));
  if (enc == "quoted-printable") {
    return decode_quoted_printable(body, false);
  }
  if (enc == "base64") {
    return decode_base64(body);
  }
  return std::string(body);
}

struct EncodedWord {
  std::string charset;  // lower case, RFC 2231 language dropped
  char encoding = 'Q';  // 'Q' or 'B'
  std::string_view payload;
  size_t end = 0;  // just past the closing "?="
};

// The RFC 2047 encoded word starting at text[start] ("=?"), if it is one.
std::optional<EncodedWord> encoded_word_at(std::string_view text, size_t start) {
  const size_t charset_begin = start + 2;
  const size_t charset_end = text.find('?', charset_begin);
  if (charset_end == std::string_view::npos || charset_end == charset_begin ||
      charset_end + 2 >= text.size() || text[charset_end + 2] != '?') {
    return std::nullopt;
  }
  const char encoding =
      static_cast<char>(std::toupper(static_cast<unsigned char>(text[charset_end + 1])));
  if (encoding != 'Q' && encoding != 'B') {
    return std::nullopt;
  }
  const size_t payload_begin = charset_end + 3;
  const size_t payload_end = text.find('?', payload_begin);
  if (payload_end == std::string_view::npos || payload_end + 1 >= text.size() ||
      text[payload_end + 1] != '=') {
    return std::nullopt;
  }
  EncodedWord word;
  std::string_view charset = text.substr(charset_begin, charset_end - charset_begin);
  word.charset = to_lower(charset.substr(0, charset.find('*')));
  word.encoding = encoding;
  word.payload = text.substr(payload_begin, payload_end - payload_begin);
  word.end = payload_end + 2;
  return word;
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Skips white space at `pos`; true when there was some.
bool skip_spaces(std::string_view text, size_t& pos) {
  const size_t begin = pos;
  while (pos < text.size() && is_space(text[pos])) {
    ++pos;
  }
  return pos > begin;
}

// At least min_digits decimal digits at `pos`, at most max_digits of them
// consumed (<= 9 keeps the value in an int); nullopt and nothing consumed
// when there are fewer.
std::optional<int> take_number(std::string_view text, size_t& pos, size_t min_digits,
                               size_t max_digits) {
  size_t end = pos;
  int value = 0;
  while (end < text.size() && end - pos < max_digits && is_digit(text[end])) {
    value = value * 10 + (text[end] - '0');
    ++end;
  }
  if (end - pos < min_digits) {
    return std::nullopt;
  }
  pos = end;
  return value;
}

void check_header_size(const std::pair<std::string, std::string>& header,
                       const std::filesystem::path& file, size_t line) {
  if (header.first.size() + header.second.size() > k_max_header_bytes) {
    throw usage_error(file.string() + ":" + std::to_string(line) + ": header '" +
                      header.first.substr(0, 40) + "' is longer than " +
                      std::to_string(k_max_header_bytes) + " bytes (not a mail a person sent)");
  }
}

}  // namespace

std::optional<std::string> MailMessage::header(std::string_view name) const {
  const std::string wanted = to_lower(name);
  for (const auto& [key, value] : headers) {
    if (to_lower(key) == wanted) {
      return value;
    }
  }
  return std::nullopt;
}

std::vector<MailMessage> split_mbox(std::string_view text, const std::filesystem::path& file) {
  const auto lines = split_lines(text);
  if (lines.size() <= 1 && text.size() > 200) {
    throw usage_error(file.string() +
                      ":1: the file has no line breaks (a mail whose newlines were lost?); "
                      "save the raw message (b4 am, or 'git format-patch') and retry");
  }
  std::vector<size_t> starts;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (is_separator(lines[i])) {
      starts.push_back(i);
    }
  }
  const bool mboxrd = !starts.empty() && starts_with(lines[starts[0]], "From mboxrd@");
  if (starts.empty()) {
    starts.push_back(static_cast<size_t>(-1));  // one message, headers from line 1
  }

  std::vector<MailMessage> messages;
  for (size_t s = 0; s < starts.size(); ++s) {
    const size_t header_begin = starts[s] == static_cast<size_t>(-1) ? 0 : starts[s] + 1;
    const size_t end = s + 1 < starts.size() ? starts[s + 1] : lines.size();
    MailMessage msg;
    msg.first_line = static_cast<int>(starts[s] == static_cast<size_t>(-1) ? 1 : starts[s] + 1);
    size_t i = header_begin;
    for (; i < end && !lines[i].empty(); ++i) {
      const auto line = lines[i];
      if ((line[0] == ' ' || line[0] == '\t') && !msg.headers.empty()) {
        msg.headers.back().second += " ";
        msg.headers.back().second += std::string(trim(line));
        check_header_size(msg.headers.back(), file, i + 1);
        continue;
      }
      const auto colon = line.find(':');
      if (colon == std::string_view::npos || colon == 0 ||
          line.substr(0, colon).find(' ') != std::string_view::npos) {
        throw usage_error(
            file.string() + ":" + std::to_string(i + 1) +
            ": expected a mail header ('Name: value'), found: " + std::string(line.substr(0, 80)));
      }
      msg.headers.emplace_back(std::string(line.substr(0, colon)),
                               std::string(trim(line.substr(colon + 1))));
      check_header_size(msg.headers.back(), file, i + 1);
    }
    if (msg.headers.empty()) {
      throw usage_error(file.string() + ":" + std::to_string(header_begin + 1) +
                        ": message has no mail headers (not an mbox or format-patch file)");
    }
    msg.body_line = static_cast<int>(i + 2);
    std::string body;
    for (size_t b = i + 1; b < end; ++b) {
      std::string_view line = lines[b];
      if (mboxrd && line.size() > 5 && line[0] == '>' &&
          line.find_first_not_of('>') != std::string_view::npos &&
          starts_with(line.substr(line.find_first_not_of('>')), "From ")) {
        line.remove_prefix(1);
      }
      body += line;
      body += '\n';
    }
    msg.body = decode_body(body, msg.header("Content-Transfer-Encoding").value_or(""));
    messages.push_back(std::move(msg));
  }
  return messages;
}

std::string decode_rfc2047(std::string_view text, std::vector<std::string>* notes) {
  std::string out;
  size_t done = 0;  // text[0, done) is in `out` already
  bool previous_was_word = false;
  for (size_t start = text.find("=?"); start != std::string_view::npos;
       start = text.find("=?", start + 1)) {
    // "=?charset?Q?payload?=": charset and payload hold no '?', so every
    // attempt stops at the next '?' and the scan stays linear.
    const auto word = encoded_word_at(text, start);
    if (!word) {
      continue;
    }
    const std::string_view between = text.substr(done, start - done);
    // Whitespace between two adjacent encoded words is dropped (RFC 2047 6.2).
    if (!(previous_was_word && trim(between).empty())) {
      out += between;
    }
    std::string decoded = word->encoding == 'B' ? decode_base64(word->payload)
                                                : decode_quoted_printable(word->payload, true);
    // Each word in its own charset, as git mailinfo's decode_header does.
    Utf8Text converted = to_utf8(decoded, word->charset);
    if (const std::string note = conversion_note(converted, word->charset);
        !note.empty() && notes != nullptr) {
      notes->push_back("an encoded word: " + note);
    }
    out += converted.text;
    previous_was_word = true;
    done = word->end;
    start = word->end - 1;
  }
  out += text.substr(done);
  return out;
}

std::optional<Person> parse_address(std::string_view raw, std::vector<std::string>* notes) {
  const std::string text = decode_rfc2047(trim(raw), notes);
  Person person;
  const auto lt = text.rfind('<');
  const auto gt = text.rfind('>');
  if (lt != std::string::npos && gt != std::string::npos && gt > lt) {
    person.email = std::string(trim(std::string_view(text).substr(lt + 1, gt - lt - 1)));
    std::string name(trim(std::string_view(text).substr(0, lt)));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      std::string unquoted;
      for (size_t i = 1; i + 1 < name.size(); ++i) {
        if (name[i] == '\\' && i + 2 < name.size()) {
          ++i;
        }
        unquoted += name[i];
      }
      name = unquoted;
    }
    person.name = name;
  } else {
    // "x@y (Name)" or a bare address.
    const auto paren = text.find('(');
    if (paren != std::string::npos && text.back() == ')') {
      person.email = std::string(trim(std::string_view(text).substr(0, paren)));
      person.name = text.substr(paren + 1, text.size() - paren - 2);
    } else {
      person.email = std::string(trim(text));
    }
  }
  if (person.email.find('@') == std::string::npos) {
    return std::nullopt;
  }
  if (person.name.empty()) {
    person.name = person.email.substr(0, person.email.find('@'));
  }
  return person;
}

std::optional<MailTime> parse_mail_date(std::string_view text) {
  // "[Thu,] 9 Jul 2026 19:25:12 [+0800|UT|UTC|GMT|Z] [anything]", read left to right.
  size_t pos = 0;
  skip_spaces(text, pos);
  if (pos + 4 <= text.size() && std::all_of(text.begin() + pos, text.begin() + pos + 3, is_alpha) &&
      text[pos + 3] == ',') {
    pos += 4;
    skip_spaces(text, pos);
  }
  const auto day = take_number(text, pos, 1, 2);
  if (!day || !skip_spaces(text, pos) || pos + 3 > text.size()) {
    return std::nullopt;
  }
  static const std::array<std::string, 12> k_months = {"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
  const auto month_at = std::find(k_months.begin(), k_months.end(), to_lower(text.substr(pos, 3)));
  if (month_at == k_months.end()) {
    return std::nullopt;
  }
  pos += 3;
  if (!skip_spaces(text, pos)) {
    return std::nullopt;
  }
  const auto year = take_number(text, pos, 4, 4);
  if (!year || !skip_spaces(text, pos)) {
    return std::nullopt;
  }
  const auto hour = take_number(text, pos, 1, 2);
  if (!hour || pos >= text.size() || text[pos] != ':') {
    return std::nullopt;
  }
  ++pos;
  const auto minute = take_number(text, pos, 2, 2);
  if (!minute) {
    return std::nullopt;
  }
  std::optional<int> second;
  if (pos < text.size() && text[pos] == ':') {
    size_t after_colon = pos + 1;
    second = take_number(text, after_colon, 2, 2);
    if (second) {
      pos = after_colon;
    }
  }
  skip_spaces(text, pos);
  int zone_hours = 0;
  int zone_minutes = 0;
  int zone_sign = 1;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    size_t digits = pos + 1;
    if (const auto hhmm = take_number(text, digits, 4, 4)) {
      zone_hours = *hhmm / 100;
      zone_minutes = *hhmm % 100;
      zone_sign = text[pos] == '-' ? -1 : 1;
    }
  }
  // Anything after the zone (a "(CEST)" comment) is ignored.

  // Out of range is unreadable, not normalised by timegm() into another date;
  // a year before 1970 would give a negative time, which git fsck rejects.
  const bool in_range = *day >= 1 && *day <= 31 && *year >= 1970 && *hour <= 23 && *minute <= 59 &&
                        second.value_or(0) <= 60 && zone_hours <= 23 && zone_minutes <= 59;
  if (!in_range) {
    return std::nullopt;
  }
  const int offset = zone_sign * (zone_hours * 60 + zone_minutes);

  std::tm tm{};
  tm.tm_mday = *day;
  tm.tm_mon = static_cast<int>(month_at - k_months.begin());
  tm.tm_year = *year - 1900;
  tm.tm_hour = *hour;
  tm.tm_min = *minute;
  tm.tm_sec = second.value_or(0);
  MailTime time;
  time.epoch = static_cast<std::int64_t>(timegm(&tm)) - offset * 60;
  time.offset_minutes = offset;
  if (time.epoch < 0) {
    return std::nullopt;  // the first hours of 1970 east of UTC: git fsck's badDate
  }
  return time;
}

}  // namespace kseries
