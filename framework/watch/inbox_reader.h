#pragma once
// What a poll reads from the inbox: every message that arrived since the
// last poll. From the archive's git epochs when the inbox has them
// (inbox_archive.h), from a cursor per epoch; else (or with --source feed)
// from its Atom feed, with a warning whenever the feed's window may have
// dropped messages. Nothing is recorded here: the caller records what it
// takes from the messages, then saves `next` (so a kill between the two
// reads the same messages again, and the state's message-ids keep any
// revision from being taken twice).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sys/process.h"
#include "watch/archive_message.h"
#include "watch/watch_state.h"

namespace kseries::watch {

enum class InboxSource { k_auto, k_archive, k_feed };
InboxSource parse_inbox_source(const std::string& text);  // Error(k_usage) if unknown

// Where a watch with no cursor yet starts: a date (commit times from it on),
// or a commit of an epoch (the messages after it).
struct Since {
  std::int64_t time = 0;  // seconds since 1970, UTC
  std::string commit;     // 40 hex digits, or ""
  std::string text;       // as given
};
// "2026-05-01", "2026-05-01T12:00:00Z" or a full commit id; Error(k_usage) else.
Since parse_since(const std::string& text);

struct ReadRequest {
  std::string inbox_url;
  InboxSource source = InboxSource::k_auto;
  std::optional<Since> since;
  std::uintmax_t max_fetch_bytes = 0;
  std::filesystem::path state_dir;  // mirrors under epochs/, downloads beside
};

struct FoundMessage {
  ArchiveMessage message;
  std::string found_in;  // "epoch 0 commit <sha>", "feed"
};

struct InboxRead {
  std::vector<FoundMessage> messages;  // in the archive's order
  ArchiveCursor next;                  // to save once they are recorded
  std::string list_address;
  std::string source;              // for the poll record
  std::vector<std::string> notes;  // where it started, what it could not see
};

// Error(k_infrastructure) when the inbox cannot be read (unreachable, git
// fails, a download passes its cap); Error(k_usage) for --since COMMIT that
// no epoch has.
InboxRead read_inbox(ProcessRunner& runner, const ReadRequest& request,
                     const ArchiveCursor& cursor);

}  // namespace kseries::watch
