#pragma once
// Importing a kernel source (a release tarball) as one reproducible commit:
// the same tarball gives the same commit id on every machine, so
// `base-commit:` trailers and build caches can name it.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
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

// What a base was imported from, stored with it (a git note on the base
// commit, refs/notes/kseries-base): the commit id names the tree, this
// names the release.
struct BaseRelease {
  std::string kernel;          // "6.12.118", from the tree's top Makefile
  std::string debian_package;  // "linux-source-6.12 6.12.118-1~deb12u1"; empty: none owns it
  std::string tarball;         // the file imported, absolute
  std::uintmax_t tarball_size = 0;
  std::int64_t tarball_mtime = 0;  // seconds
  // "6.12.118 (Debian linux-source-6.12 6.12.118-1~deb12u1)"
  std::string describe() const;
};

struct ImportedBase {
  git_oid commit;
  std::string branch;  // "base/linux-source-6.12"
  BaseRelease release;
  bool reused = false;  // the branch existed already, imported from this same tarball
  // The release the branch named before: the tarball changed since (a
  // Debian point release upgrade), so it was imported anew.
  std::optional<BaseRelease> replaced;
};

// Imports `tarball` (one top-level directory, as Debian's linux-source and
// kernel.org tarballs have) into the store once; later calls return the
// existing branch while the tarball is the one imported (its size and
// mtime, stored with the base). A tarball that changed (a package upgrade
// from 6.12.117 to 6.12.118) is imported anew and the branch moved to it:
// `replaced` says from what. Extraction happens under `scratch`, removed
// afterwards. RUNNER also asks dpkg which package owns the tarball.
ImportedBase import_tarball(Store& store, const std::filesystem::path& tarball,
                            const std::filesystem::path& scratch, ProcessRunner& runner);

// The release stored with COMMIT (an imported base); nullopt when none is.
std::optional<BaseRelease> read_base_release(const Store& store, const git_oid& commit);

// The release of COMMIT: the one stored with it, else its top Makefile's
// version alone (a --tree/--base commit; an import by an older kseries).
BaseRelease base_release(const Store& store, const git_oid& commit);

// The Debian package that owns FILE and its version ("linux-source-6.12
// 6.12.118-1~deb12u1", from dpkg-query -S and -W); empty when no package
// does or dpkg-query is missing.
std::string debian_package_of(const std::filesystem::path& file, ProcessRunner& runner);

// BaseRelease as stored ("key: value" lines) and back; nullopt when TEXT
// is not one.
std::string render_base_release(const BaseRelease& release);
std::optional<BaseRelease> parse_base_release(const std::string& text);

// "6.12.117" from a kernel Makefile's VERSION/PATCHLEVEL/SUBLEVEL/EXTRAVERSION.
std::string kernel_version_from_makefile(const std::string& makefile);

}  // namespace kseries::git
