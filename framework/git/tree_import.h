#pragma once
// Importing a kernel source (a release tarball) as one reproducible commit:
// the same tarball gives the same commit id on every machine, so
// `base-commit:` trailers and build caches can name it.

#include <filesystem>
#include <functional>
#include <string>

#include "git/store.h"
#include "sys/process.h"

namespace kseries::git {

// Writes every file below `dir` (regular files, executables, symlinks; not
// .git; ignore rules do not apply) as a tree and returns its id. Matches
// `git add -A -f` of the same directory.
git_oid write_tree_from_directory(git_repository* repo, const std::filesystem::path& dir,
                                  const std::function<void(std::size_t)>& on_progress = {});

// The fixed identity and date of imported base commits.
inline constexpr const char* k_import_name = "kseries";
inline constexpr const char* k_import_email = "kseries@invalid";
inline constexpr std::int64_t k_import_time = 946684800;  // 2000-01-01T00:00:00Z

struct ImportedBase {
  git_oid commit;
  std::string branch;   // "base/linux-source-6.12"
  std::string version;  // "6.12.117", from the top Makefile
  bool reused = false;  // the branch existed already
};

// Imports `tarball` (one top-level directory, as Debian's linux-source and
// kernel.org tarballs have) into the store once; later calls return the
// existing branch. Extraction happens under `scratch`, removed afterwards.
ImportedBase import_tarball(Store& store, const std::filesystem::path& tarball,
                            const std::filesystem::path& scratch, ProcessRunner& runner);

// "6.12.117" from a kernel Makefile's VERSION/PATCHLEVEL/SUBLEVEL/EXTRAVERSION.
std::string kernel_version_from_makefile(const std::string& makefile);

}  // namespace kseries::git
