#include "series/mail.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>
#include <initializer_list>

#include "core/error.h"
#include "core/text.h"
#include "series/mime.h"

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

// Why a header field makes the message unreadable as a patch, "" if it does not.
std::string header_problem(const std::pair<std::string, std::string>& header,
                           const std::filesystem::path& file, size_t line) {
  if (header.first.size() + header.second.size() > k_max_header_bytes) {
    return file.string() + ":" + std::to_string(line) + ": header '" + header.first.substr(0, 40) +
           "' is longer than " + std::to_string(k_max_header_bytes) +
           " bytes (not a mail a person sent)";
  }
  return "";
}

bool is_header_line(std::string_view line) {
  // RFC 5322 3.6.8: a field name is printable ASCII but ':', then ':'.
  for (size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == ':') {
      return i > 0;
    }
    if (c < 33 || c > 126) {
      return false;
    }
  }
  return false;
}

// Collapses runs of blanks into one space, as git mailinfo's cleanup_space
// does to From:; a line break stays, for the commit text checks to refuse
// (series/mail_text.h): git am would make it a space, but no honest name
// holds one.
std::string single_spaced(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == ' ' || c == '\t') {
      if (out.empty() || out.back() != ' ') {
        out += ' ';
      }
    } else {
      out += c;
    }
  }
  return std::string(trim(out));
}

// One message of an mbox, lines [begin, end): its header block checked
// here (where the body starts, what makes it unreadable), then the whole
// message read by GMime.
MailMessage read_message(const std::vector<std::string_view>& lines, size_t begin, size_t end,
                         bool mboxrd, const std::filesystem::path& file) {
  MailMessage msg;
  std::pair<std::string, std::string> current;  // the field being unfolded, for its size
  size_t current_line = 0;
  size_t i = begin;
  for (; i < end && !lines[i].empty(); ++i) {
    const auto line = lines[i];
    const bool folded = (line[0] == ' ' || line[0] == '\t') && i > begin;
    if (!folded && !is_header_line(line) && msg.problem.empty()) {
      msg.problem =
          file.string() + ":" + std::to_string(i + 1) +
          ": expected a mail header ('Name: value'), found: " + std::string(line.substr(0, 80));
    }
    if (!folded) {
      current = {std::string(line.substr(0, std::min<size_t>(line.find(':'), 80))), ""};
      current_line = i + 1;
    }
    current.second.append(line.size(), ' ');  // only the size counts
    if (const std::string why = header_problem(current, file, current_line);
        !why.empty() && msg.problem.empty()) {
      msg.problem = why;
    }
    if (line.find('\0') != std::string_view::npos && msg.problem.empty()) {
      msg.problem = file.string() + ":" + std::to_string(i + 1) + ": a header contains a NUL byte";
    }
  }
  msg.body_line = static_cast<int>(i + 2);
  std::string raw;
  for (size_t h = begin; h < i; ++h) {
    raw += lines[h];
    raw += '\n';
  }
  raw += '\n';
  for (size_t b = i + 1; b < end; ++b) {
    std::string_view line = lines[b];
    if (mboxrd && line.size() > 5 && line[0] == '>' &&
        line.find_first_not_of('>') != std::string_view::npos &&
        starts_with(line.substr(line.find_first_not_of('>')), "From ")) {
      line.remove_prefix(1);
    }
    raw += line;
    raw += '\n';
  }
  MimeMessage mime = parse_mime(raw);
  msg.headers = std::move(mime.headers);
  msg.body = std::move(mime.text);
  msg.charset = std::move(mime.charset);
  msg.multipart = mime.multipart;
  return msg;
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

std::string MailMessage::subject() const {
  const auto raw = header("Subject");
  return raw ? decode_rfc2047(*raw) : std::string();
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
    messages.push_back(read_message(lines, header_begin, end, mboxrd, file));
    MailMessage& msg = messages.back();
    msg.first_line = static_cast<int>(starts[s] == static_cast<size_t>(-1) ? 1 : starts[s] + 1);
    if (s == 0 && msg.headers.empty()) {
      throw usage_error(file.string() + ":" + std::to_string(header_begin + 1) +
                        ": message has no mail headers (not an mbox or format-patch file)");
    }
  }
  return messages;
}

std::string decode_rfc2047(std::string_view text) { return decode_header_text(text); }

std::optional<Person> parse_address(std::string_view raw) {
  auto mailbox = parse_mailbox(raw);
  if (!mailbox || mailbox->email.find('@') == std::string::npos) {
    return std::nullopt;
  }
  Person person{single_spaced(mailbox->name), std::string(trim(mailbox->email))};
  // git mailinfo's get_sane_name: such a name is no name, the address stands in.
  const bool sane = person.name.size() >= 3 && person.name.size() <= 60 &&
                    person.name.find_first_of("@<>") == std::string::npos;
  if (!sane) {
    person.name = person.email;
  }
  return person;
}

std::vector<std::string> message_ids(std::string_view value) {
  std::vector<std::string> ids;
  for (size_t open = value.find('<'); open != std::string_view::npos && ids.size() < 100;
       open = value.find('<', open + 1)) {
    const size_t close = value.find_first_of("<>", open + 1);
    if (close == std::string_view::npos) {
      break;
    }
    const std::string_view id = value.substr(open + 1, close - open - 1);
    if (value[close] == '>' && !id.empty() && id.size() <= 998 &&
        id.find_first_of(" \t\r\n") == std::string_view::npos) {
      ids.emplace_back(id);
    }
    open = close - 1;
  }
  return ids;
}

std::vector<std::string> linked_message_ids(std::string_view text) {
  std::vector<std::string> ids;
  for (size_t scheme = text.find("://"); scheme != std::string_view::npos && ids.size() < 100;
       scheme = text.find("://", scheme + 3)) {
    const size_t begin = scheme + 3;
    const size_t end = std::min(text.find_first_of(" \t\r\n<>()\"'", begin), text.size());
    const std::string_view url = text.substr(begin, end - begin);
    // host/list/<id>/..., component by component; the first with an '@' is the id.
    for (size_t at = url.find('/'); at != std::string_view::npos && at < url.size();) {
      const size_t next = std::min(url.find('/', at + 1), url.size());
      std::string component(url.substr(at + 1, next - at - 1));
      for (size_t pct = component.find("%40"); pct != std::string::npos;
           pct = component.find("%40", pct)) {
        component.replace(pct, 3, "@");
      }
      if (component.find('@') != std::string::npos && component.size() <= 998) {
        ids.push_back(component);
        break;
      }
      at = next;
    }
    scheme = end == text.size() ? text.size() - 3 : end;
  }
  return ids;
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
