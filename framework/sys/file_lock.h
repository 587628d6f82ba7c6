#pragma once
// An exclusive lock on a file (flock), held by one process at a time for as
// long as the FileLock lives; the kernel drops it when the process dies, so a
// kill -9 leaves no stale lock. The holder writes its pid and what it does
// into the file, so a process that finds the lock taken can say by whom.

#include <filesystem>
#include <optional>
#include <string>

namespace kseries {

class FileLock {
 public:
  // The lock on PATH (created if missing) when no one holds it, else nullopt
  // and HOLDER set to what the holder wrote ("pid 1234: kseries watch ...").
  // Throws Error(k_infrastructure) when PATH cannot be opened.
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path,
                                             const std::string& what, std::string& holder);
  // Waits for the lock; a SIGINT or SIGTERM while waiting throws
  // Error(k_interrupted).
  static FileLock acquire(const std::filesystem::path& path, const std::string& what);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : m_fd(fd) {}
  int m_fd = -1;
};

}  // namespace kseries
