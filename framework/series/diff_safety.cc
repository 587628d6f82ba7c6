#include "series/diff_safety.h"

#include "core/error.h"
#include "core/text.h"
#include "core/tree_path.h"

namespace kseries {
namespace {

// Git quotes paths with special characters C-style: "a/t\303\251st". The
// escapes are read as git and libgit2 read them (an octal byte is exactly
// [0-3][0-7][0-7]); any other escape, which libgit2 refuses too, throws
// Error(k_usage) "<what>: refuses a malformed quoted path ...".
std::string unquote_path(std::string_view text, const std::string& what) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') {
    return std::string(text);
  }
  const std::string_view inner = text.substr(1, text.size() - 2);
  auto malformed = [&](const std::string& why) {
    return usage_error(what + ": refuses a malformed quoted path (" + why +
                       "): " + std::string(text.substr(0, 200)));
  };
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  std::string out;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] != '\\') {
      out += inner[i];
      continue;
    }
    if (i + 1 >= inner.size()) {
      throw malformed("a '\\' before the closing quote");
    }
    const char e = inner[++i];
    if (e >= '0' && e <= '3') {
      if (i + 2 >= inner.size() || !octal(inner[i + 1]) || !octal(inner[i + 2])) {
        throw malformed("an octal escape is three digits, at most \\377");
      }
      out += static_cast<char>((e - '0') * 64 + (inner[i + 1] - '0') * 8 + (inner[i + 2] - '0'));
      i += 2;
      continue;
    }
    static const std::string_view k_escapes = "\"\"\\\\a\ab\bf\fn\nr\rt\tv\v";
    size_t found = std::string_view::npos;
    for (size_t k = 0; k < k_escapes.size(); k += 2) {
      if (k_escapes[k] == e) {
        found = k;
      }
    }
    if (found == std::string_view::npos) {
      throw malformed("unknown escape '\\" + std::string(1, e) + "'");
    }
    out += k_escapes[found + 1];
  }
  return out;
}

std::string strip_prefix(const std::string& path) {
  if (path.size() > 2 && (starts_with(path, "a/") || starts_with(path, "b/"))) {
    return path.substr(2);
  }
  return path;
}

// "a/x b/y" or "\"a/x\" \"b/y\"": split where the b/ path starts.
std::pair<std::string, std::string> split_git_header(std::string_view rest,
                                                     const std::string& what) {
  if (!rest.empty() && rest.front() == '"') {
    const auto close = rest.find("\" ", 1);
    if (close != std::string_view::npos) {
      return {unquote_path(rest.substr(0, close + 1), what),
              unquote_path(rest.substr(close + 2), what)};
    }
  }
  const auto b = rest.find(" b/");
  if (b != std::string_view::npos) {
    return {unquote_path(rest.substr(0, b), what), unquote_path(rest.substr(b + 1), what)};
  }
  const auto space = rest.find(' ');
  return {unquote_path(rest.substr(0, space), what),
          space == std::string_view::npos ? "" : unquote_path(rest.substr(space + 1), what)};
}

}  // namespace

// One rule for a path a diff names: core/tree_path.h's.
std::string path_problem(std::string_view path) { return tree_path_problem(path); }

std::string unquote_git_path(std::string_view text, const std::string& what) {
  return unquote_path(text, what);
}

std::vector<DiffFile> diff_files(std::string_view diff) {
  const std::string what = "diff";
  std::vector<DiffFile> files;
  bool in_header = false;
  for (const auto line : split_lines(diff)) {
    if (starts_with(line, "diff --git ")) {
      auto [old_path, new_path] = split_git_header(line.substr(11), what);
      files.push_back({strip_prefix(old_path), strip_prefix(new_path)});
      in_header = true;
      continue;
    }
    if (!in_header || files.empty()) {
      continue;
    }
    if (starts_with(line, "@@")) {
      in_header = false;
    } else if (starts_with(line, "--- ")) {
      auto path = unquote_path(line.substr(4), what);
      files.back().old_path = path == "/dev/null" ? "" : strip_prefix(path);
    } else if (starts_with(line, "+++ ")) {
      auto path = unquote_path(line.substr(4), what);
      files.back().new_path = path == "/dev/null" ? "" : strip_prefix(path);
    } else if (starts_with(line, "rename from ") || starts_with(line, "copy from ")) {
      files.back().old_path = unquote_path(line.substr(line.find(" from ") + 6), what);
    } else if (starts_with(line, "rename to ") || starts_with(line, "copy to ")) {
      files.back().new_path = unquote_path(line.substr(line.find(" to ") + 4), what);
    } else if (starts_with(line, "new file mode")) {
      files.back().old_path.clear();
    } else if (starts_with(line, "deleted file mode")) {
      files.back().new_path.clear();
    }
  }
  return files;
}

void check_diff_safety(std::string_view diff, const std::string& what, std::size_t max_bytes) {
  if (diff.size() > max_bytes) {
    throw usage_error(what + ": diff is " + std::to_string(diff.size()) +
                      " bytes, over the limit of " + std::to_string(max_bytes) +
                      " (raise it with --max-patch-bytes)");
  }
  std::string current;
  bool in_header = false;
  int line_no = 0;
  for (const auto line : split_lines(diff)) {
    ++line_no;
    if (line.find('\0') != std::string_view::npos) {
      // libgit2 reads past such a line: the applied blob holds heap memory.
      throw usage_error(what + ": refuses a NUL byte in line " + std::to_string(line_no) +
                        " of the diff" + (current.empty() ? "" : " of '" + current + "'"));
    }
    if (starts_with(line, "diff --git ")) {
      auto [old_path, new_path] = split_git_header(line.substr(11), what);
      current = strip_prefix(new_path.empty() ? old_path : new_path);
      for (const auto& path : {strip_prefix(old_path), strip_prefix(new_path)}) {
        if (auto problem = path_problem(path); !problem.empty()) {
          throw usage_error(what + ": refuses to touch " + problem + ": '" + path + "'");
        }
      }
      in_header = true;
      continue;
    }
    if (!in_header) {
      continue;
    }
    if (starts_with(line, "@@")) {
      in_header = false;
      continue;
    }
    std::string path;
    if (starts_with(line, "--- ") || starts_with(line, "+++ ")) {
      path = unquote_path(line.substr(4), what);
      if (path == "/dev/null") {
        continue;
      }
      path = strip_prefix(path);
    } else if (starts_with(line, "rename from ") || starts_with(line, "copy from ")) {
      path = unquote_path(line.substr(line.find(" from ") + 6), what);
    } else if (starts_with(line, "rename to ") || starts_with(line, "copy to ")) {
      path = unquote_path(line.substr(line.find(" to ") + 4), what);
    }
    if (!path.empty()) {
      if (auto problem = path_problem(path); !problem.empty()) {
        throw usage_error(what + ": refuses to touch " + problem + ": '" + path + "'");
      }
    }
    const bool mode_line = starts_with(line, "new file mode ") || starts_with(line, "new mode ") ||
                           starts_with(line, "old mode ") ||
                           starts_with(line, "deleted file mode ") || starts_with(line, "index ");
    if (mode_line) {
      // The mode is the last word ("index 1a2b..3c4d 120000" has three).
      const std::string_view mode = line.substr(line.rfind(' ') + 1);
      const bool index_without_mode =
          starts_with(line, "index ") && line.find(' ', 6) == std::string_view::npos;
      if (!index_without_mode && (mode == "120000" || mode == "160000")) {
        throw usage_error(what + ": refuses a " + (mode == "120000" ? "symlink" : "submodule") +
                          " mode on '" + current + "' (" + std::string(line) + ")");
      }
    }
  }
}

}  // namespace kseries
