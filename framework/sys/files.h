#pragma once
// File-system access for the domain modules: whole-file reads and writes with
// errors that name the file.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace kseries {

// The most read_file() takes by default: far above any series, config,
// kernel image or run record kseries reads, far below what exhausts memory.
constexpr std::size_t k_max_input_bytes = std::size_t{256} << 20;

// What an input may be: a regular file (a config, a run's JSON), or also a
// pipe (an mbox from `--series <(b4 am -o - ...)` or a FIFO).
enum class InputKind { k_regular_file, k_file_or_pipe };

// The one reader for input files. Throws Error(k_usage) naming the file when
// it cannot be read, is not what KIND allows (a device such as /dev/zero, a
// socket, a directory, a FIFO where a file is meant: refused before it is
// opened) or holds more than max_bytes. A signal that interrupts a blocked
// open or read (a FIFO with no writer) throws Error(k_interrupted).
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = k_max_input_bytes,
                      InputKind kind = InputKind::k_regular_file);
// The same checks, but a file over max_bytes gives its first max_bytes and
// sets `truncated` (a log a guest may flood: the boot is judged on what
// fits, and fails for the flood).
std::string read_file_head(const std::filesystem::path& path, std::size_t max_bytes,
                           bool& truncated);

// Creates or truncates. Throws Error(k_infrastructure) naming the file.
void write_file(const std::filesystem::path& path, std::string_view content);
// Creates the file; refuses (k_infrastructure) if it exists already.
void write_new_file(const std::filesystem::path& path, std::string_view content);

// A report file the user named: a regular file (or none yet) is replaced
// whole and atomically (written and synced beside it, then renamed; on any
// failure, a full disk too, the old file stays and nothing is left beside
// it); a symlink is followed, so the link survives and its target is
// replaced; anything else that is not a directory (a FIFO, a terminal, a
// device) is written into, never replaced. Throws Error(k_infrastructure)
// naming the file; Error(k_interrupted) when a signal cuts a blocked write.
void replace_file(const std::filesystem::path& path, std::string_view content);

}  // namespace kseries
