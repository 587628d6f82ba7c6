#include "git/tree_patch.h"

#include "core/error.h"
#include "git/libgit2.h"

namespace kseries::git {

namespace {

std::string blob_text(git_repository* repo, const git_oid& id, const std::string& what) {
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repo, &id) < 0) {
    throw infra_error(what + ": cannot read a blob (" + last_error_message() + ")");
  }
  BlobPtr blob(raw);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                     static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

}  // namespace

std::vector<PatchedFile> patch_tree(Store& store, const git_oid& commit, const std::string& patch,
                                    const std::string& what) {
  git_diff* raw_diff = nullptr;
  if (git_diff_from_buffer(&raw_diff, patch.data(), patch.size()) < 0) {
    throw usage_error(what + ": the patch does not parse (" + last_error_message() + ")");
  }
  DiffPtr diff(raw_diff);
  if (git_diff_num_deltas(diff.get()) == 0) {
    throw usage_error(what + ": the patch changes no file");
  }
  TreePtr tree = store.commit_tree(commit);
  git_index* raw_index = nullptr;
  git_apply_options options = GIT_APPLY_OPTIONS_INIT;
  if (git_apply_to_tree(&raw_index, store.repo(), tree.get(), diff.get(), &options) < 0) {
    throw usage_error(what + ": does not apply to " + to_hex(commit).substr(0, 12) + " (" +
                      last_error_message() + ")");
  }
  IndexPtr index(raw_index);
  std::vector<PatchedFile> files;
  for (std::size_t i = 0; i < git_diff_num_deltas(diff.get()); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    if (delta->status == GIT_DELTA_RENAMED && delta->old_file.path) {
      files.push_back({delta->old_file.path, std::nullopt});
    }
    const std::string path =
        delta->status == GIT_DELTA_DELETED ? delta->old_file.path : delta->new_file.path;
    const git_index_entry* entry = git_index_get_bypath(index.get(), path.c_str(), 0);
    files.push_back(
        {path, entry ? std::optional<std::string>(blob_text(store.repo(), entry->id, what))
                     : std::nullopt});
  }
  return files;
}

std::optional<std::string> file_at(Store& store, const git_oid& commit, const std::string& path) {
  TreePtr tree = store.commit_tree(commit);
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree.get(), path.c_str()) < 0) {
    return std::nullopt;
  }
  TreeEntryPtr entry(raw);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) {
    return std::nullopt;
  }
  return blob_text(store.repo(), *git_tree_entry_id(entry.get()), path);
}

}  // namespace kseries::git
