#include "sys/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "core/error.h"
#include "sys/interrupt.h"

namespace kseries {
namespace {

// Closes on every path out.
class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  int get() const { return m_fd; }
  // close(2) reports the last write error of some file systems (NFS).
  int release_and_close() {
    const int fd = m_fd;
    m_fd = -1;
    return ::close(fd);
  }

 private:
  int m_fd;
};

std::string reason(int error) { return std::strerror(error); }

// Without SA_RESTART a blocked call returns EINTR: a signal of ours stops
// kseries (exit 130/143), any other is retried.
bool retry_after_eintr(const std::string& what) {
  if (errno != EINTR) {
    return false;
  }
  throw_if_interrupted(what);
  return true;
}

// Writes all of CONTENT; throws naming PATH.
void write_all(int fd, std::string_view content, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (retry_after_eintr("writing " + path.string())) {
        continue;
      }
      throw infra_error("cannot write " + path.string() + ": " + reason(errno));
    }
    done += static_cast<std::size_t>(n);
  }
}

// Written and synced beside FILE (same file system, so the rename is
// atomic), private to this process; the partial file never survives.
void replace_atomically(const std::filesystem::path& file, std::string_view content) {
  std::filesystem::path partial = file;
  partial += ".partial-" + std::to_string(::getpid());
  ::unlink(partial.c_str());
  Fd fd(::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) {
    throw infra_error("cannot write " + file.string() + ": cannot create " + partial.string() +
                      ": " + reason(errno));
  }
  try {
    write_all(fd.get(), content, file);
    if (::fsync(fd.get()) != 0 || fd.release_and_close() != 0) {
      throw infra_error("cannot write " + file.string() + ": " + reason(errno));
    }
    if (::rename(partial.c_str(), file.c_str()) != 0) {
      throw infra_error("cannot write " + file.string() + ": " + reason(errno));
    }
  } catch (...) {
    ::unlink(partial.c_str());
    throw;
  }
}

}  // namespace

namespace {

// The one reading loop: regular files only, at most max_bytes (more throws,
// or with `truncated` is cut there).
std::string read_regular(const std::filesystem::path& path, std::size_t max_bytes, bool* truncated,
                         InputKind kind) {
  const std::string name = path.string();
  // Looked at before it is opened: opening a device may have effects, and
  // opening a FIFO waits for a writer (interruptible: no SA_RESTART).
  struct stat before {};
  const bool pipe_ok = kind == InputKind::k_file_or_pipe;
  if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode) && !S_ISDIR(before.st_mode) &&
      !(S_ISFIFO(before.st_mode) && pipe_ok)) {
    throw usage_error("cannot read " + name +
                      ": not a regular file (a FIFO, socket or device is not read here)");
  }
  const int nonblock = S_ISFIFO(before.st_mode) ? 0 : O_NONBLOCK;
  int raw = -1;
  do {
    raw = ::open(path.c_str(), O_RDONLY | nonblock | O_CLOEXEC | O_NOCTTY);
  } while (raw < 0 && retry_after_eintr("reading " + name));
  if (raw < 0) {
    throw usage_error("cannot read " + name + ": " + reason(errno));
  }
  Fd fd(raw);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    throw usage_error("cannot read " + name + ": " + reason(errno));
  }
  if (S_ISDIR(info.st_mode)) {
    throw usage_error("cannot read " + name + ": it is a directory, not a file");
  }
  if (!S_ISREG(info.st_mode) && !(S_ISFIFO(info.st_mode) && pipe_ok)) {
    throw usage_error("cannot read " + name +
                      ": not a regular file (a FIFO, socket or device is not read here)");
  }
  const auto too_big = [&](std::uintmax_t size) {
    return usage_error("cannot read " + name + ": " + std::to_string(size) +
                       " bytes or more, over the limit of " + std::to_string(max_bytes));
  };
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes && truncated == nullptr) {
    throw too_big(static_cast<std::uintmax_t>(info.st_size));
  }
  // Back to blocking reads; the size may change while reading (a log still
  // written), so read to EOF with the cap.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  std::string content;
  content.reserve(std::min<std::size_t>(
      S_ISREG(info.st_mode) ? static_cast<std::size_t>(info.st_size) : 0, max_bytes));
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0) {
      if (retry_after_eintr("reading " + name)) {
        continue;
      }
      throw usage_error("cannot read " + name + ": " + reason(errno));
    }
    if (n == 0) {
      break;
    }
    const auto got = static_cast<std::size_t>(n);
    if (content.size() + got > max_bytes) {
      if (truncated == nullptr) {
        throw too_big(content.size() + got);
      }
      content.append(buffer, max_bytes - content.size());
      *truncated = true;
      break;
    }
    content.append(buffer, got);
  }
  return content;
}

}  // namespace

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes, InputKind kind) {
  return read_regular(path, max_bytes, nullptr, kind);
}

std::string read_file_head(const std::filesystem::path& path, std::size_t max_bytes,
                           bool& truncated) {
  truncated = false;
  return read_regular(path, max_bytes, &truncated, InputKind::k_regular_file);
}

void write_file(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) {
    throw infra_error("cannot write " + path.string() + ": " + std::strerror(errno));
  }
}

void write_new_file(const std::filesystem::path& path, std::string_view content) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) {
    throw infra_error("cannot create " + path.string() + ": " + std::strerror(errno));
  }
  write_all(fd.get(), content, path);
}

void replace_file(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path file = path;
  struct stat info {};
  // A link stays; what it names (a dangling link's target too) is the file.
  for (int hops = 0; ::lstat(file.c_str(), &info) == 0 && S_ISLNK(info.st_mode); ++hops) {
    std::error_code ec;
    const auto target = std::filesystem::read_symlink(file, ec);
    if (ec || hops == 40) {
      throw infra_error("cannot write " + path.string() + ": " +
                        (ec ? ec.message() : "too many levels of symbolic links"));
    }
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  if (::stat(file.c_str(), &info) != 0) {
    if (errno != ENOENT) {
      throw infra_error("cannot write " + path.string() + ": " + reason(errno));
    }
    replace_atomically(file, content);
    return;
  }
  if (S_ISREG(info.st_mode)) {
    replace_atomically(file, content);
    return;
  }
  if (S_ISDIR(info.st_mode)) {
    throw infra_error("cannot write " + path.string() + ": it is a directory");
  }
  // A FIFO, a terminal, a device: written into, never replaced. Once a
  // signal came, a FIFO nobody reads fails at once (ENXIO) instead of
  // holding the run's last report hostage.
  const int nonblock = interrupt_signal() != 0 ? O_NONBLOCK : 0;
  int raw = -1;
  do {
    raw = ::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | nonblock);
  } while (raw < 0 && retry_after_eintr("writing " + path.string()));
  if (raw < 0) {
    throw infra_error("cannot write " + path.string() + ": " + reason(errno));
  }
  Fd fd(raw);
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  write_all(fd.get(), content, path);
  if (fd.release_and_close() != 0) {
    throw infra_error("cannot write " + path.string() + ": " + reason(errno));
  }
}

}  // namespace kseries
