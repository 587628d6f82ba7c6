#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace kseries {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto begin = text.find_first_not_of(" \t", start);
    if (begin == std::string_view::npos) {
      break;
    }
    const auto end = std::min(text.find_first_of(" \t", begin), text.size());
    words.emplace_back(text.substr(begin, end - begin));
    start = end;
  }
  return words;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) {
    out += line;
    out += '\n';
  }
  return out;
}

std::string last_lines(std::string_view text, std::size_t lines) {
  if (lines == 0) {
    return "";
  }
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') {
    --pos;  // the last line's own newline
  }
  while (pos > 0) {
    const std::size_t newline = text.rfind('\n', pos - 1);
    if (newline == std::string_view::npos) {
      break;
    }
    if (--lines == 0) {
      return std::string(text.substr(newline + 1));
    }
    pos = newline;
  }
  return std::string(text);
}

std::optional<std::uint64_t> size_in_mib(std::string_view value) {
  if (value.size() < 2 || value.size() > 13 || (value.back() != 'M' && value.back() != 'G')) {
    return std::nullopt;
  }
  const std::string_view digits = value.substr(0, value.size() - 1);
  std::uint64_t amount = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), amount);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value.back() == 'G' ? amount * 1024 : amount;
}

}  // namespace kseries
