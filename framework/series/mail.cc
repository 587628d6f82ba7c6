#include "series/mail.h"

#include <array>
#include <cctype>
#include <ctime>
#include <regex>

#include "core/error.h"
#include "core/text.h"

namespace kseries {
namespace {

bool is_separator(std::string_view line) {
  // "From 1a2b... Mon Sep 17 00:00:00 2001", "From mboxrd@z Thu Jan  1 00:00:00 1970",
  // "From git@z Thu Jan 1 00:00:00 1970".
  static const std::regex k_separator(
      R"(^From \S+ +(Mon|Tue|Wed|Thu|Fri|Sat|Sun) +(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) .*[0-9]{4}\s*$)");
  return starts_with(line, "From ") && std::regex_match(line.begin(), line.end(), k_separator);
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

std::string latin1_to_utf8(std::string_view in) {
  std::string out;
  for (unsigned char c : in) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(0xc0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3f));
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

std::string decode_rfc2047(std::string_view text) {
  static const std::regex k_word(R"(=\?([^?]+)\?([QqBb])\?([^?]*)\?=)");
  std::string out;
  auto begin = text.begin();
  bool previous_was_word = false;
  std::match_results<std::string_view::const_iterator> m;
  while (std::regex_search(begin, text.end(), m, k_word)) {
    std::string_view between(&*begin, static_cast<size_t>(m[0].first - begin));
    // Whitespace between two adjacent encoded words is dropped (RFC 2047 6.2).
    if (!(previous_was_word && trim(between).empty())) {
      out += between;
    }
    const std::string charset = to_lower(m[1].str());
    const char encoding = static_cast<char>(std::toupper(m[2].str()[0]));
    const std::string payload = m[3].str();
    std::string decoded =
        encoding == 'B' ? decode_base64(payload) : decode_quoted_printable(payload, true);
    if (charset == "iso-8859-1" || charset == "latin1" || charset == "iso-8859-15") {
      decoded = latin1_to_utf8(decoded);
    }
    out += decoded;
    previous_was_word = true;
    begin = m[0].second;
  }
  out.append(begin, text.end());
  return out;
}

std::optional<Person> parse_address(std::string_view raw) {
  const std::string text = decode_rfc2047(trim(raw));
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

std::optional<MailTime> parse_mail_date(std::string_view raw) {
  static const std::regex k_date(
      R"(^\s*(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|UT|UTC|GMT|Z)?.*$)");
  std::string text(raw);
  std::smatch m;
  if (!std::regex_match(text, m, k_date)) {
    return std::nullopt;
  }
  static const std::array<std::string, 12> k_months = {"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
  int month = -1;
  for (size_t i = 0; i < k_months.size(); ++i) {
    if (to_lower(m[2].str()) == k_months[i]) {
      month = static_cast<int>(i);
    }
  }
  if (month < 0) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_mday = std::stoi(m[1].str());
  tm.tm_mon = month;
  tm.tm_year = std::stoi(m[3].str()) - 1900;
  tm.tm_hour = std::stoi(m[4].str());
  tm.tm_min = std::stoi(m[5].str());
  tm.tm_sec = m[6].matched ? std::stoi(m[6].str()) : 0;
  int offset = 0;
  if (m[7].matched && (m[7].str()[0] == '+' || m[7].str()[0] == '-')) {
    const std::string zone = m[7].str();
    const int hhmm = std::stoi(zone.substr(1));
    offset = (hhmm / 100) * 60 + hhmm % 100;
    if (zone[0] == '-') {
      offset = -offset;
    }
  }
  MailTime time;
  time.epoch = static_cast<std::int64_t>(timegm(&tm)) - offset * 60;
  time.offset_minutes = offset;
  return time;
}

}  // namespace kseries
