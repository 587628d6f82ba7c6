#include "series/diff_scanner.h"

#include "core/text.h"

namespace kseries {
namespace {

bool ends_diff(std::string_view line) {
  return line == "-- " || starts_with(line, "base-commit: ") ||
         starts_with(line, "prerequisite-patch-id: ");
}

// Reads "N[,M]" at the start of `text` (M defaults to 1, as in git).
bool read_range(std::string_view& text, long& count) {
  auto number = [&text](long& out) {
    size_t i = 0;
    out = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i < 9) {
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

}  // namespace

bool DiffScanner::start_hunk(std::string_view header) {
  // "@@ -a,b +c,d @@ context"
  if (!starts_with(header, "@@ -")) {
    return false;
  }
  header.remove_prefix(4);
  long old_count = 0;
  long new_count = 0;
  if (!read_range(header, old_count) || !starts_with(header, " +")) {
    return false;
  }
  header.remove_prefix(2);
  if (!read_range(header, new_count) || !starts_with(header, " @@")) {
    return false;
  }
  m_old_left = old_count;
  m_new_left = new_count;
  m_state = m_old_left > 0 || m_new_left > 0 ? State::k_hunk : State::k_between;
  return true;
}

bool DiffScanner::take(std::string_view line) {
  if (m_state == State::k_hunk) {
    const char kind = line.empty() ? ' ' : line.front();  // mailers drop a lone space
    if (kind == ' ') {
      --m_old_left;
      --m_new_left;
    } else if (kind == '-') {
      --m_old_left;
    } else if (kind == '+') {
      --m_new_left;
    } else if (kind != '\\') {
      // A hunk shorter than its header: git apply refuses it, and so will
      // libgit2; read on as between hunks.
      m_state = State::k_between;
      return take(line);
    }
    if (m_old_left <= 0 && m_new_left <= 0) {
      m_state = State::k_between;
    }
    return true;
  }
  if (starts_with(line, "diff --git ")) {
    m_state = State::k_header;
    return true;
  }
  if (ends_diff(line)) {
    return false;
  }
  if (m_state == State::k_binary) {
    return true;  // base85 lines and the blank lines that end each literal
  }
  if (starts_with(line, "@@")) {
    if (!start_hunk(line)) {
      m_state = State::k_between;
    }
    return true;
  }
  if (m_state == State::k_between && !line.empty() &&
      (line.front() == '+' || line.front() == '-' || line.front() == ' ')) {
    m_overlong = true;
  }
  if (m_state == State::k_header && line == "GIT binary patch") {
    m_state = State::k_binary;
  }
  return true;
}

}  // namespace kseries
