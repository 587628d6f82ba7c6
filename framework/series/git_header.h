#pragma once
// The "diff --git a/X b/Y" line of a diff as libgit2 can read it. Git leaves
// a name with spaces unquoted ("diff --git a/foo bar b/foo bar") and finds
// the split where both names agree (or takes them from "rename from/to");
// libgit2 1.5 splits at the first space and leaves the old path NULL, so an
// added "foo bar" failed to apply and then crashed the diagnosis.

#include <string>
#include <string_view>
#include <vector>

namespace kseries {

// Rewrites, in place, every unquoted "diff --git" line of DIFF_LINES whose
// names hold a space into the quoted form both readers agree on
// ("diff --git \"a/foo bar\" \"b/foo bar\""), with the names git am would
// take: the split where the two names are the same after their first
// component, else the section's "rename from/to" or "copy from/to" lines.
// A line git could not read either is left as it is.
void quote_git_headers(std::vector<std::string>& diff_lines);

// PATH quoted C-style as git quotes it: '"', '\\' and control bytes escaped.
std::string quote_git_path(std::string_view path);

}  // namespace kseries
