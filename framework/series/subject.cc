#include "series/subject.h"

#include <regex>
#include <sstream>

#include "core/text.h"

namespace kseries {

Subject parse_subject(std::string_view raw) {
  Subject subject;
  std::string_view rest = trim(raw);
  static const std::regex k_version(R"(^[vV](\d+)$)");
  static const std::regex k_position(R"(^(\d+)/(\d+)$)");
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
      std::smatch m;
      if (std::regex_match(word, m, k_version)) {
        subject.revision = std::stoi(m[1].str());
      } else if (std::regex_match(word, m, k_position)) {
        subject.index = std::stoi(m[1].str());
        subject.total = std::stoi(m[2].str());
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
