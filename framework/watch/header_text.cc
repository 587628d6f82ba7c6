#include "watch/header_text.h"

#include "core/text.h"
#include "core/utf8.h"

namespace kseries::watch {

std::string utf8_prefix(std::string_view text, std::size_t max) {
  std::size_t end = 0;
  while (end < text.size()) {
    const auto c = next_utf8_char(text.substr(end));
    const std::size_t length = c.length == 0 ? 1 : c.length;
    if (end + length > max) {
      break;
    }
    end += length;
  }
  return std::string(text.substr(0, end));
}

std::string header_text(std::string_view text, std::size_t max) {
  std::string line = valid_utf8(text);
  for (char& c : line) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      c = ' ';
    }
  }
  const std::string cut = utf8_prefix(trim(line), max);
  return std::string(trim(cut));
}

}  // namespace kseries::watch
