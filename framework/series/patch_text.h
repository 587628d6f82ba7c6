#pragma once
// The patch part of a mail (everything after the commit message) read as
// `git apply` reads it (apply.c: find_header, parse_git_diff_header,
// parse_fragment, parse_binary), so that the diff ends where git's own
// reader says it does, whatever follows it: format-patch's "-- " signature,
// a "--" signature without its space, b4's "---" / base-commit: /
// change-id: footer, a mailing list's footer, a PGP signature part.
//
// - A file section starts at a "diff --git " line followed by at least one
//   git header line ("index ", "new file mode ", "rename from ", "--- ", ...);
//   its header ends at the first line that is not one.
// - Its hunks follow: each "@@ -a,b +c,d @@" holds exactly the lines its
//   header counts (an empty line is a context line whose space a mailer
//   dropped), then an optional "\ No newline at end of file".
// - Without hunks: a "GIT binary patch" (literal/delta hunks, each ended by
//   an empty line), a "Binary files ... differ" line, or a header that
//   creates, deletes, renames, copies or changes the mode of a file (an
//   empty new file is such a section).
// - Anything else is not part of the diff, between files or after them.
//
// git apply refuses, and so does this reader: a hunk cut short or with a
// line that is not a hunk line before its count is reached, a hunk that
// changes nothing, an "@@ -" hunk header outside a file, a file section that
// is only a header, a new file with old lines or a deleted file with new
// ones.
//
// A "--- a/f" / "+++ b/f" / "@@" section without "diff --git" (diff -u,
// quilt: Rafael Wysocki's ACPI patches are sent so) is read as git apply
// reads a traditional diff: -p1, or -p0 from the first section whose names
// have no directory on (apply.c: guess_p_value), a timestamp after a tab
// dropped, /dev/null a new or deleted file; it is handed on with the git
// header git would infer (libgit2 reads only git's format), with a note. A
// path git apply cannot name, or one quoted or with a space, is refused.

#include <string>
#include <string_view>
#include <vector>

namespace kseries {

struct PatchText {
  std::vector<std::string> diff_lines;    // the file sections, in order
  int diff_line = 0;                      // where the first one starts (0: none)
  std::vector<std::string_view> outside;  // every line outside them, in order
  // The last section has no hunk (an empty new or deleted file, a rename,
  // a mode change): libgit2 1.5 reads an empty new or deleted file only
  // when a "-- " line follows it, so the diff handed to it gets one.
  bool ends_without_hunk = false;
  // "file:line: ..." notes: lines right after a hunk that look like hunk
  // lines but its header does not count (git apply ignores them too).
  std::vector<std::string> notes;
};

// `lines` are the patch part; `first_line` is the file line of lines[0] and
// `file` names the mail, for errors and notes. Throws Error(k_usage)
// "file:line: ..." where git apply would refuse the patch.
PatchText read_patch_text(const std::vector<std::string_view>& lines, int first_line,
                          const std::string& file);

}  // namespace kseries
