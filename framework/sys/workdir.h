#pragma once
// The work directory: everything kseries produces lives below one root
// (default $XDG_CACHE_HOME/kseries or ~/.cache/kseries). Each run gets a new
// run directory that no later run overwrites.

#include <filesystem>
#include <optional>
#include <string_view>

namespace kseries {

class WorkDir {
 public:
  // Creates the root and its fixed subdirectories if they are missing.
  explicit WorkDir(std::filesystem::path root);

  // $XDG_CACHE_HOME/kseries, else $HOME/.cache/kseries.
  static std::filesystem::path default_root();

  const std::filesystem::path& root() const { return m_root; }
  // The bare git repository holding base trees and applied series.
  std::filesystem::path repo() const { return m_root / "repo.git"; }
  std::filesystem::path runs() const { return m_root / "runs"; }

  // Creates runs/<UTC timestamp>-<command>[-N] exclusively (mkdir), so two
  // runs never share a directory.
  std::filesystem::path new_run(std::string_view command) const;

  // Points runs/latest at the newest run this process created, once its
  // report is written (a run that died early leaves latest where it was).
  void point_latest() const;

 private:
  std::filesystem::path m_root;
  mutable std::optional<std::filesystem::path> m_newest_run;
};

}  // namespace kseries
