#pragma once
// The small line-oriented files kseries reads (series, depends, *.target,
// case.conf): blank lines and '#' comments skipped, line numbers kept for
// error messages.

#include <string>
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

// "key: value" lines; throws Error(k_usage) "<file>:<line>: expected
// 'key: value', found '...'" for any other content line.
std::vector<KeyValue> parse_key_values(const std::string& text, const std::string& file);

}  // namespace kseries
