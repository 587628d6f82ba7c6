#pragma once
// What a `--series` argument names. An existing file or directory is a
// format-patch directory or an mbox, as always; otherwise the text decides:
//   <id@host> or id@host    a message-id, fetched with b4 from an inbox
//   <id@host>#vN            ... revision N of the thread's series
//   A..B                    a range of the --tree repository (base = A)
//   NAME                    a branch or revision of --tree: a `b4 prep`
//                           branch (its cover-letter commit gives the base)
// Parsed without touching anything; hostile text is refused, never run.

#include <optional>
#include <string>
#include <string_view>

namespace kseries {

enum class SeriesSpecKind { k_path, k_message_id, k_range, k_branch };

struct SeriesSpec {
  SeriesSpecKind kind = SeriesSpecKind::k_path;
  std::string text;             // as given
  std::string bottom;           // k_range: A
  std::string top;              // k_range: B; k_branch: NAME
  std::string message_id;       // k_message_id: without the angle brackets
  std::optional<int> revision;  // k_message_id: "#vN"
};

// Throws Error(k_usage) for text that is none of these: empty, longer than
// 512 bytes, control characters, a revision starting with '-' (it would be
// read as an option), a message-id with spaces or more than one '@'.
SeriesSpec parse_series_spec(std::string_view text);

// "a format-patch directory or mbox", "message-id <x@y>", "range A..B" ...
std::string describe(const SeriesSpec& spec);

}  // namespace kseries
