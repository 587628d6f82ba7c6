#include "git/patch_id.h"

#include "core/error.h"
#include "git/libgit2.h"

namespace kseries::git {

std::string patch_id(std::string_view diff) {
  git_diff* raw = nullptr;
  if (git_diff_from_buffer(&raw, diff.data(), diff.size()) < 0) {
    throw usage_error("cannot compute a patch-id: the diff does not parse (" +
                      last_error_message() + ")");
  }
  DiffPtr parsed(raw);
  git_oid id{};
  git_diff_patchid_options options = GIT_DIFF_PATCHID_OPTIONS_INIT;
  check(git_diff_patchid(&id, parsed.get(), &options), "git_diff_patchid");
  return to_hex(id);
}

}  // namespace kseries::git
