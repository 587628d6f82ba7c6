#pragma once
// A boot's protocol log as read from its file, within bounds.

#include <cstddef>
#include <filesystem>
#include <vector>

#include "guest/protocol.h"

namespace kseries::guest {

// What a boot's protocol log says, read within bounds: every event of its
// first HEAD_BYTES; when the guest wrote more (a flood), the log's last
// k_protocol_tail_bytes too, for the events that end a boot there (a
// poweroff, a guest-error): a guest that floods the port and then powers
// off did power off, and is judged for the flood, not blamed on QEMU.
// Events from the tail have line 0 (their line number is not counted).
inline constexpr std::size_t k_protocol_tail_bytes = 64 * 1024;
struct ProtocolLog {
  std::vector<Event> events;
  bool flooded = false;  // the log is longer than HEAD_BYTES
};
ProtocolLog read_protocol_log(const std::filesystem::path& path, std::size_t head_bytes);

}  // namespace kseries::guest
