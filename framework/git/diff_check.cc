#include "git/diff_check.h"

#include <cstring>

#include "core/error.h"
#include "core/text.h"
#include "core/tree_path.h"
#include "series/diff_safety.h"

namespace kseries::git {
namespace {

std::string octal(uint32_t mode) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%06o", static_cast<unsigned>(mode));
  return buffer;
}

std::string mode_problem(uint32_t mode) {
  switch (mode) {
    case 0:
    case GIT_FILEMODE_BLOB:
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      return "";
    case GIT_FILEMODE_LINK:
      return "a symlink (mode 120000)";
    case GIT_FILEMODE_COMMIT:
      return "a submodule (mode 160000)";
    case GIT_FILEMODE_TREE:
      return "a directory entry (mode 040000)";
    default:
      return "mode " + octal(mode) + ", which is not a regular file";
  }
}

void check_file(const git_diff_file& file, const char* side, const std::string& what) {
  if (file.path == nullptr) {
    // No path, yet a header may still have given this side a mode (an
    // index line): whatever the side, only regular modes pass.
    if (auto problem = mode_problem(file.mode); !problem.empty()) {
      throw usage_error(what + ": refuses " + problem + " (" + side +
                        " mode as libgit2 reads the diff, a side without a path)");
    }
    return;
  }
  if (auto problem = path_problem(file.path); !problem.empty()) {
    throw usage_error(what + ": refuses to touch " + problem + ": '" + file.path + "' (" + side +
                      " path as libgit2 reads the diff)");
  }
  if (auto problem = mode_problem(file.mode); !problem.empty()) {
    throw usage_error(what + ": refuses " + problem + " on '" + file.path + "' (" + side +
                      " mode as libgit2 reads the diff)");
  }
}

}  // namespace

void check_parsed_diff(git_diff* diff, const std::string& what) {
  const size_t deltas = git_diff_num_deltas(diff);
  for (size_t d = 0; d < deltas; ++d) {
    const git_diff_delta* delta = git_diff_get_delta(diff, d);
    check_file(delta->old_file, "old", what);
    check_file(delta->new_file, "new", what);
    // libgit2 leaves a path NULL where it could not read a name from the
    // "diff --git" line (an unquoted name with spaces that git am splits by
    // its own rule): every later use of it crashed (SIGSEGV).
    const bool needs_old = delta->status != GIT_DELTA_ADDED;
    const bool needs_new = delta->status != GIT_DELTA_DELETED;
    if ((needs_old && delta->old_file.path == nullptr) ||
        (needs_new && delta->new_file.path == nullptr)) {
      const char* known = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
      throw usage_error(
          what + ": refuses file " + std::to_string(d + 1) + " of the diff: libgit2 read no " +
          (needs_old && !delta->old_file.path ? "old" : "new") + " path from its header" +
          (known ? std::string(" ('") + known + "')" : std::string()));
    }
    git_patch* raw = nullptr;
    check(git_patch_from_diff(&raw, diff, d), what + ": cannot read the parsed diff");
    PatchPtr patch(raw);
    const char* path = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
    const size_t hunks = git_patch_num_hunks(patch.get());
    for (size_t h = 0; h < hunks; ++h) {
      const int lines = git_patch_num_lines_in_hunk(patch.get(), h);
      for (int l = 0; l < lines; ++l) {
        const git_diff_line* line = nullptr;
        check(git_patch_get_line_in_hunk(&line, patch.get(), h, static_cast<size_t>(l)),
              what + ": cannot read the parsed diff");
        if (std::memchr(line->content, '\0', line->content_len) != nullptr) {
          throw usage_error(what + ": refuses a NUL byte in hunk " + std::to_string(h + 1) +
                            " of '" + (path ? path : "?") + "'");
        }
      }
    }
  }
}

}  // namespace kseries::git
