#include "session/new_path.h"

#include <algorithm>

#include "git/libgit2.h"

namespace kseries::session {

std::string NewPath::files() const {
  std::string text;
  for (const auto& file : changed) {
    text += (text.empty() ? "" : ", ") + file;
  }
  return text;
}

std::vector<std::string> changed_files(const git::Store& store, const git_oid& from,
                                       const git_oid& to) {
  git::TreePtr old_tree = store.commit_tree(from);
  git::TreePtr new_tree = store.commit_tree(to);
  git_diff* raw = nullptr;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  git::check(git_diff_tree_to_tree(&raw, store.repo(), old_tree.get(), new_tree.get(), &options),
             "cannot compare " + git::to_hex(from) + " and " + git::to_hex(to));
  git::DiffPtr diff(raw);
  std::vector<std::string> files;
  for (std::size_t i = 0; i < git_diff_num_deltas(raw); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(raw, i);
    files.emplace_back(delta->new_file.path ? delta->new_file.path : delta->old_file.path);
  }
  std::sort(files.begin(), files.end());
  return files;
}

NewPath new_path_for(const cases::CaseDef& test_case, const kernel::Target& target,
                     const std::vector<std::string>& files) {
  NewPath path;
  for (const auto& file : test_case.path) {
    if (std::binary_search(files.begin(), files.end(), file)) {
      path.changed.push_back(file);
    }
  }
  const auto& features = target.features;
  path.slow_path_by_contract =
      std::find(features.begin(), features.end(), "sanitizer") != features.end();
  return path;
}

}  // namespace kseries::session
