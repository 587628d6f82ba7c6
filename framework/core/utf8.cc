#include "core/utf8.h"

namespace kseries {

Utf8Char next_utf8_char(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80) {
    return {1, lead};
  }
  std::size_t length = 0;
  char32_t code = 0;
  char32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code = lead & 0x1F, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code = lead & 0x0F, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code = lead & 0x07, minimum = 0x10000;
  } else {
    return {};
  }
  if (text.size() < length) {
    return {};
  }
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(text[i]);
    if ((next & 0xC0) != 0x80) {
      return {};
    }
    code = (code << 6) | (next & 0x3F);
  }
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (code < minimum || code > 0x10FFFF || surrogate) {
    return {};
  }
  return {length, code};
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const Utf8Char c = next_utf8_char(text.substr(i));
    if (c.length == 0) {
      out += k_replacement_char;
      ++i;
    } else {
      out += text.substr(i, c.length);
      i += c.length;
    }
  }
  return out;
}

std::string printable_text(std::string_view raw) {
  const std::string text = valid_utf8(raw);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const Utf8Char c = next_utf8_char(std::string_view(text).substr(i));
    const std::string_view bytes = std::string_view(text).substr(i, c.length);
    i += c.length;
    const char32_t code = c.code;
    // A CR is kept only as half of CRLF: a trailing one would return the
    // cursor over whatever the terminal prints next.
    const bool line_end = code == '\r' && i < text.size() && text[i] == '\n';
    if (code == '\n' || code == '\t' || line_end) {
      out += bytes;
    } else if (code < 0x20 || code == 0x7F) {
      // U+2400 + code (U+2421 for DEL), as UTF-8: E2 90 80+code.
      const char32_t picture = code == 0x7F ? 0x21 : code;
      out += '\xE2';
      out += '\x90';
      out += static_cast<char>(0x80 + picture);
    } else if ((code >= 0x80 && code <= 0x9F) || (code >= 0x202A && code <= 0x202E) ||
               (code >= 0x2066 && code <= 0x2069)) {
      out += k_replacement_char;
    } else {
      out += bytes;
    }
  }
  return out;
}

std::string one_line(std::string_view text, std::size_t max) {
  std::string out;
  for (const char c : text) {
    if (out.size() >= max) {
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? ' ' : c;
  }
  return out;
}

}  // namespace kseries
