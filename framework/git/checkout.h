#pragma once
// A source directory that follows commits of the store, for out-of-tree
// kernel builds: moving from one commit to another rewrites only the files
// that differ (make then rebuilds only what depends on them), and an
// interrupted move is finished on the next call.

#include <filesystem>
#include <optional>

#include "git/store.h"

namespace kseries::git {

class SourceTree {
 public:
  // `dir` is the checkout; `state_file` records which commit it holds.
  SourceTree(std::filesystem::path dir, std::filesystem::path state_file);

  // The commit the directory holds, if known and complete.
  std::optional<git_oid> current() const;

  // Makes the directory hold `commit`. Returns the number of files written
  // or removed (all of them for a first checkout).
  std::size_t move_to(Store& store, const git_oid& commit);

 private:
  std::size_t full_checkout(Store& store, const git_oid& commit);
  std::size_t apply_tree_diff(Store& store, const git_oid& from, const git_oid& to);

  std::filesystem::path m_dir;
  std::filesystem::path m_state_file;
};

}  // namespace kseries::git
