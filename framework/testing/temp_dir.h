#pragma once
// Test helpers: a temporary directory removed at scope exit, and the git
// command line for building small repositories at test time.

#include <filesystem>
#include <string>
#include <vector>

namespace kseries::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

 private:
  std::filesystem::path m_path;
};

// Writes `content` to `path`, creating parent directories.
void put_file(const std::filesystem::path& path, const std::string& content);

// Runs `git <args>` in `dir` with a fixed identity; returns stdout with the
// trailing newline removed; fails the test (throws) on a non-zero exit.
std::string git(const std::filesystem::path& dir, const std::vector<std::string>& args);

// The source tree (for fixtures and the seeds next to it).
std::filesystem::path source_dir();

}  // namespace kseries::testing
