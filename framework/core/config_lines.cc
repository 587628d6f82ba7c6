#include "core/config_lines.h"

#include "core/error.h"
#include "core/text.h"

namespace kseries {

std::vector<ConfigLine> content_lines(const std::string& text) {
  std::vector<ConfigLine> lines;
  int number = 0;
  for (const auto raw : split_lines(text)) {
    ++number;
    const auto line = trim(raw);
    if (!line.empty() && line.front() != '#') {
      lines.push_back({number, std::string(line)});
    }
  }
  return lines;
}

void refuse_byte_order_mark(std::string_view text, const std::string& file) {
  if (starts_with(text, "\xEF\xBB\xBF")) {
    throw usage_error(file + ":1: starts with a UTF-8 byte order mark (save the file without one)");
  }
}

std::vector<KeyValue> parse_key_values(const std::string& text, const std::string& file) {
  refuse_byte_order_mark(text, file);
  std::vector<KeyValue> pairs;
  for (const auto& line : content_lines(text)) {
    const auto colon = line.text.find(':');
    if (colon == std::string::npos) {
      throw usage_error(file + ":" + std::to_string(line.number) +
                        ": expected 'key: value', found '" + line.text + "'");
    }
    pairs.push_back({line.number, std::string(trim(std::string_view(line.text).substr(0, colon))),
                     std::string(trim(std::string_view(line.text).substr(colon + 1)))});
  }
  return pairs;
}

}  // namespace kseries
