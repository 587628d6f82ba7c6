#include "series/series_file.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "core/config_lines.h"
#include "core/error.h"
#include "sys/files.h"

namespace kseries {

namespace fs = std::filesystem;

namespace {

// A series file lists a few dozen patches; a larger file is not one.
constexpr std::size_t k_max_series_file_bytes = std::size_t{1} << 20;

// `path` (lexically normal, absolute) is `root` or below it.
bool inside(const fs::path& path, const fs::path& root) {
  const fs::path relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

// Whether FILE (canonical) is a patch of a revision of the series tree
// ROOT: ROOT/<series>/<revision>/<name>.patch, and listed by that
// revision's series file when it has one.
bool another_revisions_patch(const fs::path& file, const fs::path& root) {
  const fs::path relative = file.lexically_relative(root);
  if (std::distance(relative.begin(), relative.end()) != 3 || file.extension() != ".patch") {
    return false;
  }
  const fs::path listing = file.parent_path() / "series";
  if (!fs::exists(listing)) {
    return true;  // a revision without a series file: its *.patch files
  }
  for (const auto& line : content_lines(read_file(listing, k_max_series_file_bytes))) {
    if (line.text == file.filename().string()) {
      return true;
    }
  }
  return false;
}

ListedPatch resolve_entry(const fs::path& dir, const fs::path& root, const ConfigLine& line,
                          const std::string& where) {
  const fs::path entry(line.text);
  const std::string quoted = "'" + line.text + "'";
  if (entry.is_absolute()) {
    throw usage_error(where + ": lists " + quoted +
                      ", an absolute path: list a file of this directory, or another revision's "
                      "patch by a path relative to it (../../<series>/<revision>/<file>)");
  }
  if (!entry.has_parent_path()) {
    // A plain file name: a file of this directory, as before references.
    const fs::path file = dir / entry;
    if (!fs::is_regular_file(file)) {
      throw usage_error(where + ": lists " + quoted + ", which is not a file in " + dir.string());
    }
    // Even a plain name may be a symlink out of the tree.
    if (!inside(fs::canonical(file), root)) {
      throw usage_error(where + ": lists " + quoted + ", a symlink to " +
                        fs::canonical(file).string() + ", outside the series tree " +
                        root.string());
    }
    return {file, where, false};
  }
  const fs::path lexical = (fs::canonical(dir) / entry).lexically_normal();
  if (!inside(lexical, root)) {
    throw usage_error(where + ": lists " + quoted + ", which leaves the series tree " +
                      root.string() + " (a reference names a patch of another revision below it)");
  }
  if (!fs::exists(lexical)) {
    throw usage_error(where + ": lists " + quoted + ", which does not exist (" + lexical.string() +
                      ")");
  }
  // Symlinks (in the entry or in the directories it crosses) are resolved
  // before the check: a link may not carry a reference out of the tree.
  const fs::path resolved = fs::canonical(lexical);
  if (!inside(resolved, root)) {
    throw usage_error(where + ": lists " + quoted + ", which resolves to " + resolved.string() +
                      " through a symlink, outside the series tree " + root.string());
  }
  if (!fs::is_regular_file(resolved)) {
    throw usage_error(where + ": lists " + quoted + ", which is not a regular file (" +
                      resolved.string() + ")");
  }
  const bool referenced = !inside(resolved, fs::canonical(dir));
  if (referenced && !another_revisions_patch(resolved, root)) {
    // Named in an error, a file that is not a patch (a key, a secret) would
    // have a line of it printed: only another revision's patch is read.
    throw usage_error(where + ": lists " + quoted + ", which is not a patch of another revision (" +
                      "a reference names <series>/<revision>/<file>.patch below " + root.string() +
                      ", a file that revision lists)");
  }
  return {resolved, where, referenced};
}

}  // namespace

fs::path series_tree_root(const fs::path& dir) {
  return fs::canonical(dir).parent_path().parent_path();
}

std::vector<ListedPatch> list_series_directory(const fs::path& dir,
                                               std::vector<std::string>& notes) {
  std::vector<ListedPatch> files;
  const fs::path series_file = dir / "series";
  if (fs::exists(series_file)) {
    const fs::path root = series_tree_root(dir);
    std::map<fs::path, std::string> listed;  // each patch once: where it is listed
    for (const auto& line : content_lines(read_file(series_file, k_max_series_file_bytes))) {
      const std::string where = series_file.string() + ":" + std::to_string(line.number);
      files.push_back(resolve_entry(dir, root, line, where));
      // Listed twice, a patch applies onto itself and fails as if its
      // context were not found.
      const auto [first, fresh] = listed.emplace(fs::weakly_canonical(files.back().file), where);
      if (!fresh) {
        throw usage_error(where + ": lists '" + line.text + "' again (first at " + first->second +
                          "): each patch once");
      }
    }
    return files;
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".patch") {
      files.push_back({entry.path(), entry.path().string(), false});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const ListedPatch& a, const ListedPatch& b) { return a.file < b.file; });
  notes.push_back("no series file in " + dir.string() + ": took its *.patch files in name order");
  return files;
}

}  // namespace kseries
