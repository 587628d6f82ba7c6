#pragma once
// A series by message-id, fetched from a public-inbox archive (lore) with
// Debian's `b4 am`: the whole thread, the newest revision unless one is
// asked for, follow-up trailers (Reviewed-by: ...) collected into the
// patches. Written out as a series directory `<name>/vN/` (the cover letter
// b4 saved, then its mbox, listed in a `series` file), which load_series()
// reads with the cover's `base-commit:` and `change-id:`.
// b4 runs with its own HOME, git configuration and cache inside the work
// directory: nothing of the user's is read or written.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "sys/process.h"

namespace kseries {

// What b4 may write; a bigger mbox is refused (a hostile thread).
inline constexpr std::uintmax_t k_max_b4_mbox_bytes = 64u << 20;

struct B4Request {
  std::string message_id;       // without angle brackets
  std::string inbox_url;        // "http://127.0.0.1:8080/toy" (b4.midmask is URL/%s)
  std::optional<int> revision;  // b4 am -v N
  std::filesystem::path out_root;
};

struct B4Series {
  std::filesystem::path dir;  // <out_root>/b4-<key>/series/<name>/v<N>
  int revision = 1;
  std::string log;  // b4's stderr, for progress
};

// Error(k_usage) when b4 finds no series in the thread (it exits 0), or the
// thread is larger than k_max_b4_mbox_bytes; Error(k_infrastructure) when b4
// is not installed or fails (the inbox unreachable, an unknown message-id).
B4Series fetch_b4_series(ProcessRunner& runner, const B4Request& request);

}  // namespace kseries
