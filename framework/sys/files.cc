#include "sys/files.h"
#include "sys/file_streams.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
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
  Fd(Fd&& other) noexcept : m_fd(other.release()) {}
  int get() const { return m_fd; }
  int release() {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }
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

// PATH opened for reading as KIND allows, or Error(k_usage) naming it.
Fd open_input(const std::filesystem::path& path, InputKind kind) {
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
  // Back to blocking reads.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  return Fd(fd.release());
}

// The one reading loop: regular files only, at most max_bytes (more throws,
// or with `truncated` is cut there).
std::string read_regular(const std::filesystem::path& path, std::size_t max_bytes, bool* truncated,
                         InputKind kind) {
  const std::string name = path.string();
  Fd fd = open_input(path, kind);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    throw usage_error("cannot read " + name + ": " + reason(errno));
  }
  const auto too_big = [&](std::uintmax_t size) {
    return usage_error("cannot read " + name + ": " + std::to_string(size) +
                       " bytes or more, over the limit of " + std::to_string(max_bytes));
  };
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes && truncated == nullptr) {
    throw too_big(static_cast<std::uintmax_t>(info.st_size));
  }
  // The size may change while reading (a log still written), so read to
  // EOF with the cap.
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

std::string read_file_tail(const std::filesystem::path& path, std::size_t max_bytes) {
  const std::string name = path.string();
  Fd fd = open_input(path, InputKind::k_regular_file);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    throw usage_error("cannot read " + name + ": " + reason(errno));
  }
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  const std::uintmax_t start = size > max_bytes ? size - max_bytes : 0;
  std::string content(static_cast<std::size_t>(size - start), '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::pread(fd.get(), content.data() + done, content.size() - done,
                              static_cast<off_t>(start + done));
    if (n < 0) {
      if (retry_after_eintr("reading " + name)) {
        continue;
      }
      throw usage_error("cannot read " + name + ": " + reason(errno));
    }
    if (n == 0) {
      break;  // cut short while reading
    }
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
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

void overwrite_file(const std::filesystem::path& path, std::string_view content) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
  struct stat info {};
  if (fd.get() < 0 || ::fstat(fd.get(), &info) != 0) {
    throw infra_error("cannot write " + path.string() + ": " + reason(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    throw infra_error("cannot write " + path.string() + " in place: not a regular file");
  }
  if (static_cast<std::uintmax_t>(info.st_size) < content.size()) {
    // Written whole or not at all: past the file's end, a full disk would
    // leave a document cut short.
    throw infra_error("cannot write " + path.string() +
                      " in place: " + std::to_string(content.size()) + " bytes over " +
                      std::to_string(info.st_size));
  }
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n =
        ::pwrite(fd.get(), content.data() + done, content.size() - done, static_cast<off_t>(done));
    if (n < 0) {
      if (retry_after_eintr("writing " + path.string())) {
        continue;
      }
      throw infra_error("cannot write " + path.string() + ": " + reason(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::ftruncate(fd.get(), static_cast<off_t>(content.size())) != 0 || ::fsync(fd.get()) != 0 ||
      fd.release_and_close() != 0) {
    throw infra_error("cannot write " + path.string() + ": " + reason(errno));
  }
}

bool is_stream(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
}

std::filesystem::path make_private_file(const std::string& stem) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string name =
      (tmpdir && *tmpdir ? std::string(tmpdir) : std::string("/tmp")) + "/" + stem + "-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    throw infra_error("cannot create a temporary file " + name + ": " + reason(errno));
  }
  ::close(fd);
  return name;
}

LineReader::LineReader(const std::filesystem::path& path, std::size_t max_line_bytes,
                       std::uint64_t max_bytes, InputKind kind)
    : m_name(path.string()), m_max_line(max_line_bytes), m_max_bytes(max_bytes) {
  m_fd = open_input(path, kind).release();
}

LineReader::~LineReader() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

bool LineReader::fill() {
  if (m_eof) {
    return false;
  }
  // What is left of the buffer moves to its front: a line is copied at
  // most once, and the buffer holds at most one line and one read.
  m_buffer.erase(0, m_start);
  m_start = 0;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
    if (n < 0) {
      if (retry_after_eintr("reading " + m_name)) {
        continue;
      }
      throw usage_error("cannot read " + m_name + ": " + reason(errno));
    }
    if (n == 0) {
      m_eof = true;
      return false;
    }
    m_read += static_cast<std::uint64_t>(n);
    if (m_read > m_max_bytes) {
      throw usage_error("cannot read " + m_name + ": more than " + std::to_string(m_max_bytes) +
                        " bytes, over the limit");
    }
    m_buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
}

std::optional<std::string_view> LineReader::next() {
  std::size_t searched = m_start;
  for (;;) {
    const std::size_t newline = m_buffer.find('\n', searched);
    if (newline != std::string::npos) {
      const std::size_t length = newline - m_start;
      if (length > m_max_line) {
        throw usage_error(m_name + ":" + std::to_string(m_line + 1) + ": a line longer than " +
                          std::to_string(m_max_line) + " bytes");
      }
      ++m_line;
      const std::string_view line(m_buffer.data() + m_start, length);
      m_start = newline + 1;
      return line;
    }
    if (m_buffer.size() - m_start > m_max_line) {
      throw usage_error(m_name + ":" + std::to_string(m_line + 1) + ": a line longer than " +
                        std::to_string(m_max_line) + " bytes");
    }
    const std::size_t pending = m_buffer.size() - m_start;
    if (!fill()) {
      if (m_buffer.size() == m_start) {
        return std::nullopt;
      }
      ++m_line;  // a last line without its newline
      const std::string_view line(m_buffer.data() + m_start, m_buffer.size() - m_start);
      m_start = m_buffer.size();
      return line;
    }
    searched = m_start + pending;  // fill() moved the pending bytes to the front
  }
}

}  // namespace kseries
