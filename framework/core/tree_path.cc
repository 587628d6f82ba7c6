#include "core/tree_path.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace kseries {

namespace {

// The next code point of TEXT at POS (advanced past it); nullopt for a byte
// that does not start a well-formed UTF-8 sequence.
std::optional<char32_t> next_code_point(std::string_view text, std::size_t& pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  std::size_t length = 0;
  char32_t value = 0;
  if (lead < 0x80) {
    ++pos;
    return lead;
  }
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    value = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    value = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    value = lead & 0x07;
  } else {
    return std::nullopt;
  }
  if (pos + length > text.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) {
      return std::nullopt;
    }
    value = (value << 6) | (byte(pos + i) & 0x3F);
  }
  pos += length;
  return value;
}

// The code points HFS+ leaves out when it compares names (git utf8.c
// next_hfs_char).
bool hfs_ignored(char32_t c) {
  return (c >= 0x200c && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
         (c >= 0x206a && c <= 0x206f) || c == 0xfeff;
}

bool is_hfs_dotgit(std::string_view name) {
  static constexpr std::string_view k_dotgit = ".git";
  std::size_t pos = 0;
  std::size_t matched = 0;
  while (pos < name.size()) {
    const auto c = next_code_point(name, pos);
    if (!c) {
      return false;  // not UTF-8: not a name HFS+ reads as .git
    }
    if (hfs_ignored(*c)) {
      continue;
    }
    const char32_t folded =
        *c < 0x80 ? static_cast<char32_t>(std::tolower(static_cast<int>(*c))) : *c;
    if (matched == k_dotgit.size() || folded != static_cast<char32_t>(k_dotgit[matched])) {
      return false;
    }
    ++matched;
  }
  return matched == k_dotgit.size();
}

bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) {
    return false;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != lower[i]) {
      return false;
    }
  }
  return true;
}

// git path.c is_ntfs_dotgit: ".git" or "git~1", then only dots and spaces
// up to the end or a backslash (NTFS drops trailing dots and spaces; a
// backslash is a directory separator there).
bool is_ntfs_dotgit(std::string_view name) {
  std::size_t rest = 0;
  if (name.size() >= 4 && equals_ignoring_case(name.substr(0, 4), ".git")) {
    rest = 4;
  } else if (name.size() >= 5 && equals_ignoring_case(name.substr(0, 5), "git~1")) {
    rest = 5;
  } else {
    return false;
  }
  for (; rest < name.size(); ++rest) {
    if (name[rest] == '\\') {
      return true;
    }
    if (name[rest] != '.' && name[rest] != ' ') {
      return false;
    }
  }
  return true;
}

}  // namespace

bool is_dotgit_name(std::string_view component) {
  if (is_hfs_dotgit(component)) {
    return true;
  }
  // Each piece between backslashes, as NTFS would see the path.
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = component.find('\\', begin);
    if (is_ntfs_dotgit(
            component.substr(begin, end == std::string_view::npos ? end : end - begin))) {
      return true;
    }
    if (end == std::string_view::npos) {
      return false;
    }
    begin = end + 1;
  }
}

std::string tree_path_problem(std::string_view path) {
  if (path.empty()) {
    return "an empty path";
  }
  if (path.front() == '/') {
    return "an absolute path";
  }
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(path.find('/', begin), path.size());
    const std::string_view part = path.substr(begin, end - begin);
    if (part.empty()) {
      return "an empty component";
    }
    if (part == "..") {
      return "a '..' component";
    }
    if (part == ".") {
      return "a '.' component";
    }
    if (is_dotgit_name(part)) {
      return "a path inside .git";
    }
    // NAME_MAX: it applied, then no checkout could write it.
    if (part.size() > 255) {
      return "a name of " + std::to_string(part.size()) + " bytes (a file system takes 255)";
    }
    if (end == path.size()) {
      break;
    }
    begin = end + 1;
  }
  if (path.size() > 4095) {
    return "a path of " + std::to_string(path.size()) + " bytes (PATH_MAX is 4096)";
  }
  return "";
}

}  // namespace kseries
