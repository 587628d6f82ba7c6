#include "git/blob_reader.h"

#include "git/libgit2.h"

namespace kseries::git {

std::optional<std::string> read_blob_at(const Store& store, const git_oid& commit,
                                        const std::string& path) {
  const TreePtr tree = store.commit_tree(commit);
  git_tree_entry* raw_entry = nullptr;
  if (git_tree_entry_bypath(&raw_entry, tree.get(), path.c_str()) != 0) {
    return std::nullopt;
  }
  const TreeEntryPtr entry(raw_entry);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) {
    return std::nullopt;
  }
  git_blob* raw_blob = nullptr;
  check(git_blob_lookup(&raw_blob, store.repo(), git_tree_entry_id(entry.get())),
        "cannot read " + path + " of " + to_hex(commit));
  const BlobPtr blob(raw_blob);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                     static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

}  // namespace kseries::git
