#include "git/path_conflict.h"

#include <set>
#include <vector>

namespace kseries::git {
namespace {

enum class EntryKind { k_none, k_blob, k_tree };

EntryKind entry_kind(git_tree* tree, const std::string& path) {
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree, path.c_str()) < 0) {
    return EntryKind::k_none;
  }
  TreeEntryPtr entry(raw);
  return git_tree_entry_type(entry.get()) == GIT_OBJECT_TREE ? EntryKind::k_tree
                                                             : EntryKind::k_blob;
}

// Every file below the directory `path` of `tree`, as full paths.
std::vector<std::string> files_below(git_tree* tree, const std::string& path) {
  std::vector<std::string> files;
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree, path.c_str()) < 0) {
    return files;
  }
  TreeEntryPtr entry(raw);
  git_object* object = nullptr;
  if (git_tree_entry_to_object(&object, git_tree_owner(tree), entry.get()) < 0) {
    return files;
  }
  ObjectPtr subtree(object);
  struct Walk {
    std::string root;
    std::vector<std::string>* files;
  } walk{path + "/", &files};
  git_tree_walk(
      reinterpret_cast<git_tree*>(subtree.get()), GIT_TREEWALK_PRE,
      [](const char* root, const git_tree_entry* e, void* payload) {
        auto* w = static_cast<Walk*>(payload);
        if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
          w->files->push_back(w->root + root + git_tree_entry_name(e));
        }
        return 0;
      },
      &walk);
  return files;
}

}  // namespace

std::string directory_file_conflicts(git_tree* tree, git_diff* diff) {
  std::set<std::string> removed;
  std::set<std::string> created;
  const size_t deltas = git_diff_num_deltas(diff);
  for (size_t d = 0; d < deltas; ++d) {
    const git_diff_delta* delta = git_diff_get_delta(diff, d);
    // (A NULL path is refused by check_parsed_diff before this runs.)
    if ((delta->status == GIT_DELTA_DELETED || delta->status == GIT_DELTA_RENAMED) &&
        delta->old_file.path != nullptr) {
      removed.insert(delta->old_file.path);
    }
    if ((delta->status == GIT_DELTA_ADDED || delta->status == GIT_DELTA_RENAMED ||
         delta->status == GIT_DELTA_COPIED) &&
        delta->new_file.path != nullptr) {
      created.insert(delta->new_file.path);
    }
  }
  std::string report;
  // git am: "already exists in index"; git_apply_to_tree put the new
  // file's lines in front of the old one's.
  for (const std::string& path : created) {
    if (entry_kind(tree, path) == EntryKind::k_blob && !removed.count(path)) {
      report += "  " + path + ": the patch creates it, but it already exists in the tree\n";
    }
  }
  for (const std::string& path : created) {
    for (size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      const std::string prefix = path.substr(0, slash);
      if (created.count(prefix)) {
        report += "  " + path + ": the patch creates it and also a file '" + prefix +
                  "' (a path cannot be both a file and a directory)\n";
      } else if (entry_kind(tree, prefix) == EntryKind::k_blob && !removed.count(prefix)) {
        report += "  " + path + ": the patch creates it, but '" + prefix +
                  "' is a file in the tree (git am: Not a directory)\n";
      }
    }
    if (entry_kind(tree, path) == EntryKind::k_tree) {
      for (const std::string& file : files_below(tree, path)) {
        if (!removed.count(file)) {
          report += "  " + path + ": the patch creates it as a file, but it is a directory in " +
                    "the tree (holding '" + file + "')\n";
          break;
        }
      }
    }
  }
  return report;
}

}  // namespace kseries::git
