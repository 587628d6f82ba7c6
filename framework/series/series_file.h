#pragma once
// Which patch files a series directory holds, in apply order: its `series`
// file (one entry a line, '#' comments), or without one its *.patch files in
// name order. An entry is a file of the directory or a relative path to a
// patch of another revision in the same series tree, so that a derived
// revision (a known-bad one) lists the reference revision's patches instead
// of copying them:
//   ../../zone-device-memmap/v6/v6-0001-mm-fix-stale-ZONE_DEVICE-refcount-comment.patch
// The series tree is the directory's grandparent (`<tree>/<series>/<revision>/`,
// `patches/` for the bundled series); an entry that leaves it, by `..` or
// through a symlink, is refused, and so is a reference to anything but a
// patch of another revision (`<tree>/<series>/<revision>/<name>.patch`,
// listed by that revision's series file when it has one): a file that is
// no patch would have a line of it quoted in the error that refuses it.
// Each patch is listed once.

#include <filesystem>
#include <string>
#include <vector>

namespace kseries {

struct ListedPatch {
  std::filesystem::path file;  // a file of the directory, or the referenced file resolved
  std::string where;           // "<dir>/series:3", for messages about the listing
  bool referenced = false;     // the entry names a file outside the directory
};

// The root a series file's references must stay in: `dir`'s grandparent,
// symlinks resolved.
std::filesystem::path series_tree_root(const std::filesystem::path& dir);

// Throws Error(k_usage) naming the series file and line for an entry that is
// absolute, leaves the series tree, does not exist, is not a regular file,
// references what is not another revision's patch, or names a patch listed
// before.
// Adds a note when there is no series file.
std::vector<ListedPatch> list_series_directory(const std::filesystem::path& dir,
                                               std::vector<std::string>& notes);

}  // namespace kseries
