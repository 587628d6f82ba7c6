#include "series/patch_text.h"

#include <array>
#include <optional>

#include "core/error.h"
#include "core/text.h"

namespace kseries {
namespace {

// The header lines git apply's parse_git_diff_header knows (its optable,
// less "@@ -", which ends the header).
constexpr std::array<std::string_view, 15> k_git_header_lines = {"--- ",
                                                                 "+++ ",
                                                                 "old mode ",
                                                                 "new mode ",
                                                                 "deleted file mode ",
                                                                 "new file mode ",
                                                                 "copy from ",
                                                                 "copy to ",
                                                                 "rename old ",
                                                                 "rename new ",
                                                                 "rename from ",
                                                                 "rename to ",
                                                                 "similarity index ",
                                                                 "dissimilarity index ",
                                                                 "index "};

bool is_git_header_line(std::string_view line) {
  for (const auto prefix : k_git_header_lines) {
    if (starts_with(line, prefix)) {
      return true;
    }
  }
  return false;
}

// "N[,M]" at the start of `text` (M defaults to 1, as in git); at most 9
// digits a number.
bool read_range(std::string_view& text, long& count) {
  auto number = [&text](long& out) {
    size_t i = 0;
    out = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (i == 9) {
        return false;
      }
      out = out * 10 + (text[i] - '0');
      ++i;
    }
    text.remove_prefix(i);
    return i > 0;
  };
  long start = 0;
  if (!number(start)) {
    return false;
  }
  count = 1;
  if (!text.empty() && text.front() == ',') {
    text.remove_prefix(1);
    return number(count);
  }
  return true;
}

struct HunkHeader {
  long old_count = 0;
  long new_count = 0;
};

// "@@ -a,b +c,d @@ context", as git's parse_fragment_header reads it.
std::optional<HunkHeader> hunk_header(std::string_view line) {
  if (!starts_with(line, "@@ -")) {
    return std::nullopt;
  }
  line.remove_prefix(4);
  HunkHeader header;
  if (!read_range(line, header.old_count) || !starts_with(line, " +")) {
    return std::nullopt;
  }
  line.remove_prefix(2);
  if (!read_range(line, header.new_count) || !starts_with(line, " @@")) {
    return std::nullopt;
  }
  return header;
}

bool is_binary_data_line(std::string_view line) {
  // A length byte A-Z/a-z, then base85 in groups of five (apply.c).
  const char length = line.empty() ? '\0' : line.front();
  const bool length_ok = (length >= 'A' && length <= 'Z') || (length >= 'a' && length <= 'z');
  return length_ok && line.size() >= 6 && (line.size() - 1) % 5 == 0;
}

class Reader {
 public:
  Reader(const std::vector<std::string_view>& lines, int first_line, const std::string& file)
      : m_lines(lines), m_first_line(first_line), m_file(file) {}

  PatchText read() {
    while (m_at < m_lines.size()) {
      const std::string_view line = m_lines[m_at];
      if (starts_with(line, "diff --git ") && m_at + 1 < m_lines.size() &&
          is_git_header_line(m_lines[m_at + 1])) {
        read_file_section();
        continue;
      }
      if (hunk_header(line)) {
        fail(m_at,
             "a hunk header outside a file's diff (git apply: patch fragment without "
             "header)");
      }
      if (starts_with(line, "--- ") && m_at + 2 < m_lines.size() &&
          starts_with(m_lines[m_at + 1], "+++ ") && hunk_header(m_lines[m_at + 2])) {
        read_traditional_section();
        continue;
      }
      m_out.outside.push_back(line);
      ++m_at;
    }
    return std::move(m_out);
  }

 private:
  [[noreturn]] void fail(size_t index, const std::string& why) const {
    throw usage_error(where(index) + ": " + why + ": '" +
                      std::string(m_lines[index].substr(0, 80)) + "'");
  }
  std::string where(size_t index) const {
    return m_file + ":" + std::to_string(m_first_line + static_cast<int>(index));
  }
  void take() { m_out.diff_lines.emplace_back(m_lines[m_at++]); }

  void read_file_section() {
    const size_t start = m_at;
    if (m_out.diff_line == 0) {
      m_out.diff_line = m_first_line + static_cast<int>(start);
    }
    take();  // diff --git
    bool is_new = false;
    bool is_delete = false;
    bool renamed_or_copied = false;
    std::string old_mode;
    std::string new_mode;
    int extensions = 0;
    while (m_at < m_lines.size() && is_git_header_line(m_lines[m_at])) {
      const std::string_view line = m_lines[m_at];
      if (starts_with(line, "new file mode ")) {
        is_new = true;
        ++extensions;
      } else if (starts_with(line, "deleted file mode ")) {
        is_delete = true;
        ++extensions;
      } else if (starts_with(line, "rename ") || starts_with(line, "copy ")) {
        extensions += renamed_or_copied ? 0 : 1;
        renamed_or_copied = true;
      } else if (starts_with(line, "old mode ")) {
        old_mode = trim(line.substr(9));
      } else if (starts_with(line, "new mode ")) {
        new_mode = trim(line.substr(9));
      }
      if (extensions > 1) {
        fail(m_at, "inconsistent header lines (git apply refuses them)");
      }
      take();
    }
    long old_lines = 0;
    long new_lines = 0;
    bool hunks = false;
    while (m_at < m_lines.size() && starts_with(m_lines[m_at], "@@ -")) {
      const auto counted = read_hunk();
      old_lines += counted.old_count;
      new_lines += counted.new_count;
      hunks = true;
    }
    if (is_new && old_lines > 0) {
      fail(start, "a new file with old contents (git apply refuses it)");
    }
    if (is_delete && new_lines > 0) {
      fail(start, "a deleted file that still has contents (git apply refuses it)");
    }
    if (hunks) {
      m_out.ends_without_hunk = false;
      note_uncounted_lines();
      return;
    }
    if (m_at < m_lines.size() && m_lines[m_at] == "GIT binary patch") {
      take();
      read_binary_hunk(true);
      if (m_at < m_lines.size() &&
          (starts_with(m_lines[m_at], "literal ") || starts_with(m_lines[m_at], "delta "))) {
        read_binary_hunk(false);
      }
      m_out.ends_without_hunk = false;
      return;
    }
    const std::string_view next = m_at < m_lines.size() ? m_lines[m_at] : std::string_view();
    if ((starts_with(next, "Binary files ") || starts_with(next, "Files ")) && next.size() >= 7 &&
        next.substr(next.size() - 7) == " differ") {
      take();
      m_out.ends_without_hunk = false;
      return;
    }
    const bool mode_change = !old_mode.empty() && !new_mode.empty() && old_mode != new_mode;
    if (!is_new && !is_delete && !renamed_or_copied && !mode_change) {
      fail(start,
           "a file's diff with a header and nothing to apply (git apply: patch with "
           "only garbage)");
    }
    m_out.ends_without_hunk = true;  // an empty new file, a rename, a mode change
  }

  // "--- a/f" "+++ b/f" and hunks without "diff --git" (diff -u, quilt, a
  // mailer's own patch): git apply reads it as a traditional diff with -p1
  // (apply.c: parse_traditional_patch); libgit2 reads only git's format, so
  // the section is handed to it with the git header git apply would infer.
  void read_traditional_section() {
    const size_t start = m_at;
    const auto old_raw = traditional_path(start);
    const auto new_raw = traditional_path(start + 1);
    if (!old_raw && !new_raw) {
      fail(start, "a diff from /dev/null to /dev/null (git apply refuses it)");
    }
    // git apply's guess_p_value: the first traditional section whose names
    // have no directory makes it -p0 for the rest of the patch; else -p1.
    if (!m_strip_known && (!old_raw || old_raw->find('/') == std::string_view::npos) &&
        (!new_raw || new_raw->find('/') == std::string_view::npos) && (old_raw || new_raw)) {
      const bool agree = old_raw && new_raw;
      if (agree || !old_raw) {  // "/dev/null" then a name: that name decides
        m_strip = 0;
        m_strip_known = true;
      }
    }
    const auto old_name = old_raw ? std::optional(stripped(*old_raw, start)) : std::nullopt;
    const auto new_name = new_raw ? std::optional(stripped(*new_raw, start + 1)) : std::nullopt;
    // Both named: the new one, unless the old one is a prefix of it
    // ("f" and "f.new"), as git apply's find_name_common has it.
    std::string name = new_name ? *new_name : *old_name;
    if (old_name && new_name && old_name->size() < new_name->size() &&
        starts_with(*new_name, *old_name)) {
      name = *old_name;
    }
    if (m_out.diff_line == 0) {
      m_out.diff_line = m_first_line + static_cast<int>(start);
    }
    m_out.diff_lines.push_back("diff --git a/" + name + " b/" + name);
    if (!old_name) {
      m_out.diff_lines.emplace_back("new file mode 100644");
    } else if (!new_name) {
      m_out.diff_lines.emplace_back("deleted file mode 100644");
    }
    m_out.diff_lines.push_back(old_name ? "--- a/" + name : std::string("--- /dev/null"));
    m_out.diff_lines.push_back(new_name ? "+++ b/" + name : std::string("+++ /dev/null"));
    m_at += 2;
    long old_lines = 0;
    long new_lines = 0;
    while (m_at < m_lines.size() && starts_with(m_lines[m_at], "@@ -")) {
      const auto counted = read_hunk();
      old_lines += counted.old_count;
      new_lines += counted.new_count;
    }
    if (!old_name && old_lines > 0) {
      fail(start, "a new file (from /dev/null) with old contents (git apply refuses it)");
    }
    if (!new_name && new_lines > 0) {
      fail(start, "a deleted file (to /dev/null) that still has contents (git apply refuses it)");
    }
    m_out.notes.push_back(where(start) + ": '" + name +
                          "': a diff without 'diff --git' lines, read as git apply reads it "
                          "(a traditional diff, -p" +
                          std::to_string(m_strip) + ")");
    m_out.ends_without_hunk = false;
    note_uncounted_lines();
  }

  // The path of a traditional "--- "/"+++ " line at `index`, a
  // tab-separated timestamp dropped; nullopt for /dev/null.
  std::optional<std::string_view> traditional_path(size_t index) const {
    std::string_view value = m_lines[index].substr(4);
    value = value.substr(0, value.find('\t'));
    while (!value.empty() && value.back() == ' ') {
      value.remove_suffix(1);
    }
    if (value == "/dev/null") {
      return std::nullopt;
    }
    if (value.empty() || value.front() == '"' || value.find(' ') != std::string_view::npos) {
      fail(index,
           "a traditional diff whose path kseries cannot read as git apply does (empty, "
           "quoted or with a space)");
    }
    return value;
  }

  // `path` without its first m_strip components (-p); what git apply cannot
  // name it refuses, and so does this.
  std::string stripped(std::string_view path, size_t index) const {
    for (int i = 0; i < m_strip; ++i) {
      const size_t slash = path.find('/');
      if (slash == std::string_view::npos || slash + 1 == path.size()) {
        fail(index, "a traditional diff whose path has no directory to strip (git apply -p" +
                        std::to_string(m_strip) + ": unable to find filename)");
      }
      path.remove_prefix(slash + 1);
    }
    return std::string(path);
  }

  HunkHeader read_hunk() {
    const size_t header_at = m_at;
    const auto header = hunk_header(m_lines[m_at]);
    if (!header) {
      fail(m_at, "a malformed hunk header (git apply: corrupt patch)");
    }
    take();
    long old_left = header->old_count;
    long new_left = header->new_count;
    bool changes = false;
    while (old_left > 0 || new_left > 0) {
      if (m_at >= m_lines.size()) {
        fail(header_at,
             "a hunk cut short: its header counts more lines than the mail has "
             "(git apply: corrupt patch)");
      }
      const std::string_view line = m_lines[m_at];
      const char kind = line.empty() ? ' ' : line.front();  // mailers drop a lone space
      if (kind == ' ') {
        --old_left;
        --new_left;
      } else if (kind == '-') {
        --old_left;
        changes = true;
      } else if (kind == '+') {
        --new_left;
        changes = true;
      } else if (kind != '\\' || line.size() < 11 || !starts_with(line, "\\ ")) {
        fail(m_at,
             "a line inside a hunk that is not a hunk line: the hunk has fewer lines than "
             "its header counts (git apply: corrupt patch)");
      }
      if (old_left < 0 || new_left < 0) {
        fail(m_at,
             "a hunk with more lines of one side than its header counts (git apply: "
             "corrupt patch)");
      }
      if (line.empty()) {
        // A context line whose space a mailer dropped gets it back: libgit2
        // 1.5 stops reading a hunk at a last line that is only "\n" (the
        // diff's end), and refused such a series as "invalid patch hunk".
        m_out.diff_lines.emplace_back(" ");
        ++m_at;
        continue;
      }
      take();
    }
    if (!changes) {
      fail(header_at,
           "a hunk that adds and removes nothing: its header counts only context "
           "(git apply: corrupt patch)");
    }
    if (m_at < m_lines.size() && starts_with(m_lines[m_at], "\\ ") && m_lines[m_at].size() >= 11) {
      take();  // "\ No newline at end of file" after the last counted line
    }
    return *header;
  }

  void read_binary_hunk(bool required) {
    const std::string_view method = m_at < m_lines.size() ? m_lines[m_at] : std::string_view();
    if (!starts_with(method, "literal ") && !starts_with(method, "delta ")) {
      if (required) {
        fail(m_at - 1,
             "a binary patch without a literal or delta hunk (git apply: "
             "unrecognized binary patch)");
      }
      return;
    }
    take();
    while (m_at < m_lines.size() && !m_lines[m_at].empty()) {
      if (!is_binary_data_line(m_lines[m_at])) {
        fail(m_at,
             "a line inside a binary patch that is not base85 data (git apply: corrupt "
             "binary patch)");
      }
      take();
    }
    if (m_at < m_lines.size()) {
      take();  // the empty line that ends the hunk
    } else {
      m_out.diff_lines.emplace_back();  // the mail ended where that line belongs
    }
  }

  // Lines right after a hunk that look like hunk lines but are not counted:
  // git apply ignores them, so does kseries; the user hears of it.
  void note_uncounted_lines() {
    size_t end = m_at;
    while (end < m_lines.size() && !m_lines[end].empty() &&
           (m_lines[end].front() == '+' || m_lines[end].front() == ' ' ||
            (m_lines[end].front() == '-' && !starts_with(m_lines[end], "--")))) {
      ++end;
    }
    if (end > m_at) {
      m_out.notes.push_back(where(m_at) + ": " + std::to_string(end - m_at) +
                            " line(s) after a hunk look like hunk lines but its @@ header does "
                            "not count them: not applied (git apply ignores them too)");
    }
  }

  const std::vector<std::string_view>& m_lines;
  int m_first_line;
  const std::string& m_file;
  size_t m_at = 0;
  int m_strip = 1;             // git apply's -p for a traditional diff
  bool m_strip_known = false;  // guessed once a patch (apply.c: p_value_known)
  PatchText m_out;
};

}  // namespace

PatchText read_patch_text(const std::vector<std::string_view>& lines, int first_line,
                          const std::string& file) {
  return Reader(lines, first_line, file).read();
}

}  // namespace kseries
