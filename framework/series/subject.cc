#include "series/subject.h"

#include <algorithm>
#include <sstream>

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

}  // namespace

Subject parse_subject(std::string_view raw, const std::string& where) {
  Subject subject;
  std::string_view rest = trim(raw);
  for (;;) {
    const std::string lower = to_lower(rest.substr(0, 5));
    if (starts_with(lower, "re:") || starts_with(lower, "fwd:")) {
      rest = trim(rest.substr(rest.find(':') + 1));
      continue;
    }
    if (rest.empty() || rest.front() != '[') {
      break;
    }
    const auto close = rest.find(']');
    if (close == std::string_view::npos) {
      break;
    }
    std::istringstream words{std::string(rest.substr(1, close - 1))};
    std::string word;
    while (words >> word) {
      const std::string_view text = word;
      const auto slash = text.find('/');
      if (text.size() > 1 && (text[0] == 'v' || text[0] == 'V') && all_digits(text.substr(1))) {
        subject.revision = bounded_number(text.substr(1), k_max_revision, "revision", text, where);
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
    rest = trim(rest.substr(close + 1));
  }
  subject.title = std::string(rest);
  return subject;
}

}  // namespace kseries
