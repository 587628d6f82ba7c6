#pragma once
// The small line-oriented files kseries reads (series, depends, *.target,
// case.conf): blank lines and '#' comments skipped, line numbers kept for
// error messages.

#include <string>
#include <string_view>
#include <vector>

namespace kseries {

struct ConfigLine {
  int number = 0;    // 1-based
  std::string text;  // trimmed
};

// The lines that are neither blank nor comments.
std::vector<ConfigLine> content_lines(const std::string& text);

struct KeyValue {
  int number = 0;
  std::string key;
  std::string value;
};

// Throws Error(k_usage) "<file>:1: starts with a UTF-8 byte order mark ..."
// when TEXT does: the first key would silently read as "\xEF\xBB\xBFkey".
void refuse_byte_order_mark(std::string_view text, const std::string& file);

// "key: value" lines (refuse_byte_order_mark first); throws Error(k_usage) "<file>:<line>: expected
// 'key: value', found '...'" for any other content line.
std::vector<KeyValue> parse_key_values(const std::string& text, const std::string& file);

}  // namespace kseries
