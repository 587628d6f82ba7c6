#pragma once
// What a kernel was built from, proven rather than assumed. The builder
// holds its target's lock from checkout to store, but a lock only binds
// those who take it (another kseries of an older version, a user's editor,
// a stand-in that misbehaves), and a kernel filed under the wrong commit
// poisons every later cell that reuses it: a kernel built from another
// revision's sources was once stored as v10's and passed its struct page
// checks (issue 45). So the builder checks, before it stores:
//  - that no file of the source tree changed while make ran (a stat
//    snapshot of every file, taken after the checkout and again after make,
//    as git's index does: size, mtime and ctime to the nanosecond, inode);
//  - that every source file make read (the dependency lists kbuild's
//    fixdep writes into each object's .cmd file) holds the commit's blob,
//    byte for byte (git's blob id of the file on disk against the tree's).
// The list of (file, blob id) is stored with the kernel (sources.tsv), so
// `kseries build --verify` can check a stored kernel against the store
// again, long after the build directory moved on.

#include <git2.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "git/store.h"

namespace kseries::kernel {

// One file's identity as stat(2) gives it (git's "racily clean" fields).
struct FileStat {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileStat&) const = default;
};

// Every regular file and symlink under a directory, by path relative to it,
// and when the walk began. File timestamps come from a coarse clock (a
// kernel tick): a file written in the tick the snapshot was taken can be
// written again within it and keep its stat ("racily clean", as git calls
// it), so such files are checked by content (racy_paths()).
struct TreeSnapshot {
  std::map<std::string, FileStat> files;
  std::int64_t taken_ns = 0;  // CLOCK_REALTIME when the walk began
  std::size_t size() const { return files.size(); }
};

TreeSnapshot snapshot_tree(const std::filesystem::path& dir);

// The files of AFTER whose stat is unchanged since BEFORE but whose mtime is
// within a tick (50 ms, far above any kernel's) of BEFORE's walk: a write
// that stat cannot show may have happened. Check them by content.
std::vector<std::string> racy_paths(const TreeSnapshot& before, const TreeSnapshot& after);

// The paths that differ between two snapshots (changed, added, removed), in
// order; at most LIMIT of them.
std::vector<std::string> changed_paths(const TreeSnapshot& before, const TreeSnapshot& after,
                                       std::size_t limit = 20);

// The files under SRC_DIR that the build in BUILD_DIR read, relative to
// SRC_DIR, from every object's .cmd file (`source_X := FILE` and the
// `deps_X := \` list fixdep writes). Generated files (in the build
// directory) and `$(wildcard ...)` config markers are not sources.
std::vector<std::string> files_make_read(const std::filesystem::path& build_dir,
                                         const std::filesystem::path& src_dir);

// git's blob id (hex) of the file at PATH's bytes.
std::string blob_id_of_file(const std::filesystem::path& path);

struct SourceCheck {
  // (path relative to the tree, blob id the file holds) for every file
  // checked, sorted by path: what sources.tsv stores.
  std::vector<std::pair<std::string, std::string>> files;
  // "PATH: holds blob X, the commit has Y" for each file whose bytes are not
  // the commit's (or that the commit does not have); empty when all match.
  std::vector<std::string> mismatches;
};

// PATHS in SRC_DIR against COMMIT's tree in STORE. A path in OVERRIDES (a
// target's tree patch: path -> blob id of the patched content, "" for a
// file the patch deletes) is checked against that instead.
SourceCheck check_sources(const git::Store& store, const git_oid& commit,
                          const std::filesystem::path& src_dir,
                          const std::vector<std::string>& paths,
                          const std::map<std::string, std::string>& overrides);

// sources.tsv's text: "PATH\tBLOB\n" per file.
std::string manifest_text(const SourceCheck& check);
// The inverse; lines that are not PATH\tBLOB are skipped.
std::vector<std::pair<std::string, std::string>> parse_manifest(const std::string& text);

}  // namespace kseries::kernel
