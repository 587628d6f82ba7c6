#pragma once
// Where the `diff --git` part of a patch mail ends. format-patch follows it
// with the "-- " signature and b4 with base-commit: trailers, but "-- " is
// also a hunk line (it removes the line "- ") and blank lines belong to a
// binary patch. So the diff is read as git apply reads it: a hunk holds
// exactly the lines its "@@ -a,b +c,d @@" header counts, and the signature is
// only recognised between hunks and files.

#include <string_view>

namespace kseries {

class DiffScanner {
 public:
  // Takes the next line after (and including) the first "diff --git" line.
  // Returns false for the first line that is no longer part of the diff (the
  // signature or a trailer); the caller stops feeding lines there.
  bool take(std::string_view line);

  // True when the diff ended inside a "GIT binary patch", whose last
  // literal or delta needs its terminating blank line (libgit2: "corrupt
  // git binary patch separator" without it).
  bool ends_in_binary() const { return m_state == State::k_binary; }

  // True once a hunk line ('+', '-', ' ') came after its hunk had all the
  // lines its header counts: git am refuses that ("corrupt patch"), libgit2
  // silently drops the extra lines.
  bool overlong_hunk() const { return m_overlong; }

 private:
  enum class State { k_header, k_hunk, k_binary, k_between };
  bool start_hunk(std::string_view header);

  State m_state = State::k_header;
  long m_old_left = 0;  // lines of the current hunk still to come
  long m_new_left = 0;
  bool m_overlong = false;
};

}  // namespace kseries
