#pragma once
// The stable patch-id of a diff, as `git patch-id --stable` computes it
// (libgit2's git_diff_patchid): the same change gives the same id whatever
// its line numbers, blob ids and whitespace, so a patch carried unchanged
// from one revision of a series to the next keeps its id.

#include <string>
#include <string_view>

namespace kseries::git {

// 40 hex digits. Throws Error(k_usage) when libgit2 cannot parse `diff`
// (the `diff --git` part of a patch mail).
std::string patch_id(std::string_view diff);

}  // namespace kseries::git
