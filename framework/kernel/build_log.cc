#include "kernel/build_log.h"

#include <algorithm>
#include <climits>
#include <optional>

#include "core/text.h"

namespace kseries::kernel {

namespace {

// Plain code, no std::regex: a build log holds lines the tree under test
// wrote (a compiler quotes source lines, a patch can make a warning of any
// length), and libstdc++'s regex recursed per character of "(.*)" and
// overflowed the stack on a long line. Each reader below looks at a line a
// bounded number of times and accepts what the regular expression in its
// comment accepted.

// \s as std::regex reads it in the "C" locale.
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Where the run of non-space characters starting at `pos` ends.
std::size_t end_of_word(std::string_view line, std::size_t pos) {
  while (pos < line.size() && !is_space(line[pos])) {
    ++pos;
  }
  return pos;
}

// "\d+" at `pos`, `pos` moved past it; 0 (unknown) when it does not fit
// an int (std::stoi threw on such a line).
std::optional<int> number_at(std::string_view line, std::size_t& pos) {
  const std::size_t begin = pos;
  long long value = 0;
  while (pos < line.size() && is_digit(line[pos])) {
    value = std::min<long long>(value * 10 + (line[pos] - '0'), 1LL + INT_MAX);
    ++pos;
  }
  if (pos == begin) {
    return std::nullopt;
  }
  return value > INT_MAX ? 0 : static_cast<int>(value);
}

std::string strip_prefixes(std::string path, const std::vector<std::string>& prefixes) {
  for (const auto& prefix : prefixes) {
    if (!prefix.empty() && starts_with(path, prefix)) {
      return path.substr(prefix.size());
    }
  }
  while (starts_with(path, "./")) {
    path = path.substr(2);
  }
  return path;
}

// What follows a diagnostic's file: ":(\d+):(?:(\d+):)? (fatal error|error|warning): (.*)$".
std::optional<Diagnostic> diagnostic_tail(std::string_view line, std::size_t pos) {
  Diagnostic diagnostic;
  ++pos;  // the ':' after the file
  const auto line_no = number_at(line, pos);
  if (!line_no || pos >= line.size() || line[pos] != ':') {
    return std::nullopt;
  }
  diagnostic.line = *line_no;
  ++pos;
  std::size_t after_column = pos;
  if (const auto column = number_at(line, after_column);
      column && after_column < line.size() && line[after_column] == ':') {
    diagnostic.column = *column;
    pos = after_column + 1;
  }
  if (pos >= line.size() || line[pos] != ' ') {
    return std::nullopt;
  }
  ++pos;
  for (const std::string_view kind : {"fatal error: ", "error: ", "warning: "}) {
    if (line.substr(pos, kind.size()) == kind) {
      diagnostic.severity = kind == "warning: " ? Severity::k_warning : Severity::k_error;
      diagnostic.message = std::string(line.substr(pos + kind.size()));
      return diagnostic;
    }
  }
  return std::nullopt;
}

// "^(\S+?):(\d+):(?:(\d+):)? (fatal error|error|warning): (.*)$": the
// shortest file that lets the rest match, as the lazy "\S+?" chose it. Each
// ':' of the first word is tried once, and the tail stops at the next one
// but two, so the whole is linear.
std::optional<Diagnostic> read_diagnostic(std::string_view line) {
  const std::size_t word_end = end_of_word(line, 0);
  for (std::size_t colon = line.find(':', 1); colon != std::string_view::npos && colon < word_end;
       colon = line.find(':', colon + 1)) {
    if (auto found = diagnostic_tail(line, colon)) {
      found->file = std::string(line.substr(0, colon));
      return found;
    }
  }
  return std::nullopt;
}

// "^(?:\S*ld(?:\.\S+)?): (\S+\.o): in function .*$": the object.
std::optional<std::string> linker_object(std::string_view line) {
  const std::size_t first_end = end_of_word(line, 0);  // "ld:", "/usr/bin/ld.bfd:"
  if (first_end < 3 || first_end >= line.size() || line[first_end] != ' ' ||
      line[first_end - 1] != ':') {
    return std::nullopt;
  }
  const std::string_view linker = line.substr(0, first_end - 1);
  const std::size_t dot = linker.find("ld.");
  if (!linker.ends_with("ld") && (dot == std::string_view::npos || dot + 3 >= linker.size())) {
    return std::nullopt;
  }
  const std::size_t object_begin = first_end + 1;
  const std::size_t object_end = end_of_word(line, object_begin);
  if (object_end - object_begin < 4 || line[object_end - 1] != ':' ||
      line.substr(object_end, 13) != " in function ") {
    return std::nullopt;
  }
  const std::string_view object = line.substr(object_begin, object_end - 1 - object_begin);
  if (!object.ends_with(".o")) {
    return std::nullopt;
  }
  return std::string(object);
}

// "^make(\[\d+\])?: \*\*\* (.*)$".
bool is_make_failure(std::string_view line) {
  if (!starts_with(line, "make")) {
    return false;
  }
  std::size_t pos = 4;
  if (pos < line.size() && line[pos] == '[') {
    ++pos;
    if (!number_at(line, pos) || pos >= line.size() || line[pos] != ']') {
      return false;
    }
    ++pos;
  }
  return line.substr(pos, 6) == ": *** ";
}

// After "  CC" or "  AS": "( \[M\])? +(\S+)\.o$", the object's stem.
std::optional<std::string_view> quiet_object(std::string_view rest) {
  const auto stem = [](std::string_view text) -> std::optional<std::string_view> {
    std::size_t pos = 0;
    while (pos < text.size() && text[pos] == ' ') {
      ++pos;
    }
    const std::string_view object = text.substr(pos);
    if (pos == 0 || object.size() < 3 || !object.ends_with(".o") ||
        end_of_word(object, 0) != object.size()) {
      return std::nullopt;
    }
    return object.substr(0, object.size() - 2);
  };
  if (starts_with(rest, " [M]")) {
    if (const auto found = stem(rest.substr(4))) {
      return found;
    }
  }
  return stem(rest);
}

}  // namespace

std::string compiled_source(std::string_view line) {
  if (!starts_with(line, "  CC") && !starts_with(line, "  AS")) {
    return "";
  }
  const auto stem = quiet_object(line.substr(4));
  if (!stem) {
    return "";
  }
  return std::string(*stem) + (line[2] == 'A' ? ".S" : ".c");
}

BuildLog parse_build_log(std::string_view log, const std::vector<std::string>& source_prefixes) {
  BuildLog result;
  std::string last_object;
  for (const auto line : split_lines(log)) {
    if (const std::string source = compiled_source(line); !source.empty()) {
      result.compiled.push_back(source);
      continue;
    }
    if (line.find("No space left on device") != std::string_view::npos) {
      result.disk_full = true;
    }
    if (auto found = read_diagnostic(line)) {
      found->file = strip_prefixes(std::move(found->file), source_prefixes);
      found->text = std::string(line);
      (found->severity == Severity::k_warning ? result.warnings : result.errors)
          .push_back(std::move(*found));
    } else if (auto object = linker_object(line)) {
      last_object = std::move(*object);
    } else if (line.find("undefined reference to") != std::string_view::npos) {
      Diagnostic diagnostic;
      std::string object = strip_prefixes(last_object, source_prefixes);
      if (object.size() > 2 && object.ends_with(".o")) {
        object = object.substr(0, object.size() - 2) + ".c";
      }
      diagnostic.file = object;
      diagnostic.message = std::string(trim(line.substr(line.find("undefined reference to"))));
      diagnostic.text = std::string(line);
      result.errors.push_back(std::move(diagnostic));
    } else if (is_make_failure(line)) {
      result.make_failures.emplace_back(line);
    }
  }
  return result;
}

}  // namespace kseries::kernel
