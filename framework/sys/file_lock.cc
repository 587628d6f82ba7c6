#include "sys/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/error.h"
#include "core/text.h"
#include "sys/interrupt.h"

namespace kseries {

namespace fs = std::filesystem;

namespace {

int open_lock_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    throw infra_error("cannot open the lock file " + path.string() + ": " + std::strerror(errno));
  }
  return fd;
}

std::string read_holder(int fd) {
  char buffer[512];
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  const std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
  const std::string line(trim(text.substr(0, text.find('\n'))));
  return line.empty() ? "a process that has not said who it is yet" : line;
}

void write_holder(int fd, const std::string& what) {
  const std::string text = "pid " + std::to_string(::getpid()) + ": " + what + "\n";
  // Best effort: the lock is the flock, the text only says whose it is.
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t n = ::pwrite(fd, text.data(), text.size(), 0);
  }
}

}  // namespace

std::optional<FileLock> FileLock::try_acquire(const fs::path& path, const std::string& what,
                                              std::string& holder) {
  const int fd = open_lock_file(path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    holder = read_holder(fd);
    ::close(fd);
    if (error != EWOULDBLOCK) {
      throw infra_error("cannot lock " + path.string() + ": " + std::strerror(error));
    }
    return std::nullopt;
  }
  write_holder(fd, what);
  return FileLock(fd);
}

FileLock FileLock::acquire(const fs::path& path, const std::string& what) {
  while (true) {
    std::string holder;
    if (auto lock = try_acquire(path, what, holder)) {
      return std::move(*lock);
    }
    throw_if_interrupted("waiting for the lock " + path.string() + " (" + holder + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

FileLock::FileLock(FileLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }

FileLock::~FileLock() {
  if (m_fd >= 0) {
    ::close(m_fd);  // drops the flock
  }
}

}  // namespace kseries
