#include "series/subject.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"

namespace kseries {
namespace {

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `digits` (all decimal digits) as a number no larger than `max`; anything
// larger is refused naming `where` and the prefix word it came from.
int bounded_number(std::string_view digits, int max, const std::string& what, std::string_view word,
                   const std::string& where) {
  std::string_view significant =
      digits.substr(std::min(digits.find_first_not_of('0'), digits.size()));
  long long value = 0;
  if (significant.size() <= 9) {
    for (char c : significant) {
      value = value * 10 + (c - '0');
    }
  }
  if (significant.size() > 9 || value > max) {
    throw usage_error(where + ": subject prefix '" + std::string(word.substr(0, 40)) +
                      "': " + what + " " + std::string(significant.substr(0, 20)) +
                      (significant.size() > 20 ? "..." : "") + " is out of range (at most " +
                      std::to_string(max) + ")");
  }
  return static_cast<int>(value);
}

// The words of one [...] prefix group: PATCH/RFC, vN, m/n.
void read_prefix(std::string_view group, const std::string& where, Subject& subject) {
  for (const auto& word : split_words(group)) {
    const std::string_view text = word;
    const auto slash = text.find('/');
    if (text.size() > 1 && (text[0] == 'v' || text[0] == 'V') && all_digits(text.substr(1))) {
      subject.revision = bounded_number(text.substr(1), k_max_revision, "revision", text, where);
      subject.explicit_revision = true;
    } else if (slash != std::string_view::npos && all_digits(text.substr(0, slash)) &&
               all_digits(text.substr(slash + 1))) {
      subject.index =
          bounded_number(text.substr(0, slash), k_max_patches, "patch number", text, where);
      subject.total =
          bounded_number(text.substr(slash + 1), k_max_patches, "patch count", text, where);
      subject.numbered = true;
    } else if (to_lower(word) == "rfc") {
      subject.rfc = true;
    }
  }
}

}  // namespace

Subject parse_subject(std::string_view raw, const std::string& where) {
  Subject subject;
  std::string_view rest = raw;
  for (;;) {
    if (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t' || rest.front() == ':')) {
      rest.remove_prefix(1);
      continue;
    }
    // git: "re:" needs something after it (subject->len > at + 3).
    if (rest.size() > 3 && to_lower(rest.substr(0, 3)) == "re:") {
      rest.remove_prefix(3);
      continue;
    }
    if (rest.empty() || rest.front() != '[') {
      break;
    }
    const auto close = rest.find(']');
    if (close == std::string_view::npos) {
      break;
    }
    read_prefix(rest.substr(1, close - 1), where, subject);
    rest.remove_prefix(close + 1);
  }
  // cleanup_space: every white space run becomes one space.
  for (const char c : trim(rest)) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    if (!space) {
      subject.title += c;
    } else if (subject.title.empty() || subject.title.back() != ' ') {
      subject.title += ' ';
    }
  }
  return subject;
}

}  // namespace kseries
