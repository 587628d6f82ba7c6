#include "report/markup.h"

#include "report/junit.h"

namespace kseries::report {

namespace fs = std::filesystem;

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : xml_safe(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string percent_encode(std::string_view path) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : path) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    }
  }
  return out;
}

std::string file_url(const fs::path& path) {
  return "file://" + percent_encode(fs::absolute(path).lexically_normal().string());
}

std::string href(const fs::path& target, const fs::path& page_dir) {
  if (target.is_absolute() && page_dir.is_absolute()) {
    const fs::path relative =
        target.lexically_normal().lexically_relative(page_dir.lexically_normal());
    if (!relative.empty()) {
      return escape(percent_encode(relative.string()));
    }
  }
  return escape(file_url(target));
}

}  // namespace kseries::report
