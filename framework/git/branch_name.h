#pragma once
// The name of a branch kseries creates, as a user means it: `--branch
// refs/heads/x` is branch x (libgit2, like `git branch`, would create
// refs/heads/refs/heads/x), and a name git would read as something else
// first is refused instead of created.

#include <string>

namespace kseries::git {

// GIVEN ("x", "series/toy", "refs/heads/x") as the short branch name to
// create below refs/heads/. Throws Error(k_usage) for what `git
// check-ref-format --branch` refuses, for a name starting with '-' (an
// option), and for a name that git's lookup order resolves before
// refs/heads/NAME: "@" and the pseudo-refs (HEAD, FETCH_HEAD, ORIG_HEAD
// ...), another namespace of refs/ ("refs/tags/x"), "heads/x", "tags/x",
// "remotes/x" (refs/heads/x, refs/tags/x ... come first), and 40 hex
// digits (read as an object id).
std::string branch_name(const std::string& given);

}  // namespace kseries::git
