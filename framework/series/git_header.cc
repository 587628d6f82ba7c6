#include "series/git_header.h"

#include <cstdio>
#include <optional>

#include "core/text.h"
#include "series/diff_safety.h"

namespace kseries {
namespace {

constexpr std::string_view k_header = "diff --git ";

// The name without its first component ("a/foo bar" -> "foo bar").
std::optional<std::string_view> strip_component(std::string_view name) {
  const auto slash = name.find('/');
  if (slash == std::string_view::npos || slash + 1 >= name.size()) {
    return std::nullopt;
  }
  return name.substr(slash + 1);
}

// git's git_header_name() for two unquoted names: the first space (or tab)
// after which the second name repeats the first.
std::optional<std::pair<std::string, std::string>> same_name_split(std::string_view rest) {
  for (std::size_t k = 0; k < rest.size(); ++k) {
    if (rest[k] != ' ' && rest[k] != '\t') {
      continue;
    }
    const std::string_view first = rest.substr(0, k);
    const std::string_view second = rest.substr(k + 1);
    const auto a = strip_component(first);
    const auto b = strip_component(second);
    if (a && b && *a == *b) {
      return std::make_pair(std::string(first), std::string(second));
    }
  }
  return std::nullopt;
}

// "rename from X"/"rename to Y" (or copy) in the header of the section that
// starts at line `at`.
std::optional<std::pair<std::string, std::string>> renamed_names(
    const std::vector<std::string>& lines, std::size_t at) {
  std::optional<std::string> from;
  std::optional<std::string> to;
  for (std::size_t i = at + 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (starts_with(line, k_header) || starts_with(line, "--- ") || starts_with(line, "@@") ||
        starts_with(line, "GIT binary patch")) {
      break;
    }
    try {
      if (starts_with(line, "rename from ") || starts_with(line, "copy from ")) {
        from = "a/" + unquote_git_path(line.substr(line.find(" from ") + 6), "diff");
      } else if (starts_with(line, "rename to ") || starts_with(line, "copy to ")) {
        to = "b/" + unquote_git_path(line.substr(line.find(" to ") + 4), "diff");
      }
    } catch (const std::exception&) {
      return std::nullopt;  // diff_safety refuses the malformed quote itself
    }
  }
  if (from && to) {
    return std::make_pair(*from, *to);
  }
  return std::nullopt;
}

}  // namespace

std::string quote_git_path(std::string_view path) {
  std::string out = "\"";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          char octal[8];
          std::snprintf(octal, sizeof octal, "\\%03o", byte);
          out += octal;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

namespace {

// "rename from NAME" (or rename to, copy from/to, ---, +++) with NAME
// quoted when it holds a space: libgit2 reads such a name only up to its
// first space ("trailing data"); git writes it plain (a tab after the name
// on ---/+++ lines, dropped here).
void quote_name_line(std::string& line) {
  for (const std::string_view prefix :
       {"rename from ", "rename to ", "copy from ", "copy to ", "--- ", "+++ "}) {
    if (!starts_with(line, prefix)) {
      continue;
    }
    std::string_view name = std::string_view(line).substr(prefix.size());
    if (!name.empty() && name.back() == '\t') {
      name.remove_suffix(1);
    }
    if (name.empty() || name.front() == '"' ||
        name.find_first_of(" \t") == std::string_view::npos) {
      return;
    }
    line = std::string(prefix) + quote_git_path(name);
    return;
  }
}

}  // namespace

void quote_git_headers(std::vector<std::string>& diff_lines) {
  bool in_header = false;
  for (std::size_t i = 0; i < diff_lines.size(); ++i) {
    const std::string_view line = diff_lines[i];
    if (in_header && (starts_with(line, "@@") || starts_with(line, "GIT binary patch"))) {
      in_header = false;
    }
    if (in_header && !starts_with(line, k_header)) {
      quote_name_line(diff_lines[i]);
      continue;
    }
    if (!starts_with(line, k_header)) {
      continue;
    }
    in_header = true;
    const std::string_view rest = line.substr(k_header.size());
    // Quoted names, or one space between two plain names: libgit2 reads
    // those as git does.
    if (rest.empty() || rest.front() == '"' ||
        rest.find_first_of(" \t") == rest.find_last_of(" \t")) {
      continue;
    }
    auto names = same_name_split(rest);
    if (!names) {
      names = renamed_names(diff_lines, i);
    }
    if (names) {
      diff_lines[i] = std::string(k_header) + quote_git_path(names->first) + " " +
                      quote_git_path(names->second);
    }
  }
}

}  // namespace kseries
