#pragma once
// Files read as they stream and written where a new file cannot be: what
// sys/files.h does not cover (inputs too large to hold whole, a guest's
// log past a flood, reports written into a FIFO or over a placeholder on
// a full disk).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "sys/files.h"

namespace kseries {

// An input read as it streams, one line at a time, in memory bounded by
// its longest line (a cover file of 54 MB must not become 500 MB of
// strings): the same checks as read_file() when opened; next() throws
// Error(k_usage) "FILE:LINE: ..." for a line over max_line_bytes, and
// "FILE: ..." past max_bytes in all or when a read fails.
class LineReader {
 public:
  LineReader(const std::filesystem::path& path, std::size_t max_line_bytes, std::uint64_t max_bytes,
             InputKind kind = InputKind::k_regular_file);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  // The next line, without its newline (a last line without one too);
  // nullopt at the end. Valid until the next call.
  std::optional<std::string_view> next();
  // The number of the line next() returned last (1-based).
  std::size_t line_number() const { return m_line; }
  const std::string& name() const { return m_name; }

 private:
  bool fill();

  std::string m_name;
  std::size_t m_max_line;
  std::uint64_t m_max_bytes;
  int m_fd = -1;
  std::string m_buffer;
  std::size_t m_start = 0;  // where the next line starts in m_buffer
  std::uint64_t m_read = 0;
  std::size_t m_line = 0;
  bool m_eof = false;
};

// The last max_bytes of a regular file (all of it when smaller), with the
// checks of read_file(): what a guest wrote last, past a flood.
std::string read_file_tail(const std::filesystem::path& path, std::size_t max_bytes);

// Writes CONTENT over the bytes of the existing regular file PATH and cuts
// it to CONTENT's length, in place: no new file and no new block (what a
// full disk still allows; a report's placeholder is written large enough
// for its replacement). Throws Error(k_infrastructure) naming the file,
// also for CONTENT longer than the file (never written in part).
void overwrite_file(const std::filesystem::path& path, std::string_view content);

// Whether PATH names (through symlinks) something that is written into, not
// replaced: a FIFO, a terminal or another device, a socket.
bool is_stream(const std::filesystem::path& path);

// A new, empty, private regular file in the temporary directory ($TMPDIR,
// else /tmp), named STEM-XXXXXX. Throws Error(k_infrastructure).
std::filesystem::path make_private_file(const std::string& stem);

}  // namespace kseries
