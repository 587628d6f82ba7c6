#pragma once
// The point release a series was verified on against the base's. A series
// made on 6.12.117 and applied onto 6.12.118 may land at an offset, or
// conflict, in the files that changed between the two; this names them.
// The series' release is its README's "Verified on: 6.12.117" line, the
// base's its top Makefile. Which touched files changed is read from the
// diffs' own `index` lines (the blob each file was before the series),
// compared with the base's blob of that path: no tree of the older
// release is needed.

#include <git2.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "git/store.h"
#include "series/series.h"

namespace kseries::git {

// "6.12.117" from the first "Verified on: 6.12.117 ..." line of README.md
// (or README) in SOURCE (a series directory); nullopt when there is none.
std::optional<std::string> verified_release(const std::filesystem::path& source);

// The same from a README's text.
std::optional<std::string> verified_release_in(const std::string& readme);

struct ReleaseDrift {
  std::string series;
  std::string verified;  // the series' release ("6.12.117")
  std::string base;      // the base's ("6.12.118")
  // The files the series changes that existed before it, and of those the
  // ones whose blob at the base is not the one the series was made against
  // (or that the base lacks).
  std::vector<std::string> touched;
  std::vector<std::string> differ;
  // "point release: S was verified on 6.12.117, the base is 6.12.118; 1 of
  // the 4 files it changes differs from the one it was made against: F"
  std::string text() const;
};

// One drift per series of CHAIN (prerequisites first) whose README names a
// release other than BASE's; a file's "before" is its first preimage in the
// chain (what the chain applies onto).
std::vector<ReleaseDrift> release_drifts(const Store& store, const git_oid& base,
                                         const std::vector<const Series*>& chain);

}  // namespace kseries::git
