#pragma once
// What `kseries watch` knows, in its state directory (one per inbox and
// outbox), each file replaced whole (written beside it, then renamed) at
// every step, so a kill at any moment leaves either the step before or the
// step after:
//   <key>.json, one per revision it found:
//     seen -> fetched (b4 wrote the series) | ignored (no --match, not a
//             revision of its own) | refused (b4 or kseries could not take it)
//          -> gated (the gate's verdict and the answer's text kept)
//          -> sending -> answered (the mail is in the outbox; piped to --sendmail)
//   archive.json: where the archive was read up to (a cursor per epoch) or,
//     reading the feed, the newest entry seen;
//   poll.json: the last poll, its failures, what it waits for.
// Ignored and refused revisions carry the intake stamp (kseries' version and
// the --match set) they were judged under; a poll under another stamp takes
// them again. Only one process works on a state at a time (lock_watch_state).

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sys/file_lock.h"

namespace kseries::watch {

enum class Phase { k_seen, k_ignored, k_refused, k_fetched, k_gated, k_sending, k_answered };
std::string phase_name(Phase phase);

// How the revision was posted: its 0/N cover letter, a patch alone, or the
// first patch of a series sent without a cover letter.
enum class StartKind { k_cover, k_single, k_first_patch };
std::string start_kind_name(StartKind kind);

struct RevisionState {
  std::string key;  // file-safe, from the message-id
  std::string message_id;
  std::string title;
  std::string author_name;
  std::string author_email;
  std::string list_address;
  std::string updated;
  int revision = 1;
  int total = 0;
  StartKind kind = StartKind::k_cover;
  std::string in_reply_to;
  std::vector<std::string> references;  // the thread above it (archive_message.h)
  std::string found_in;                 // "epoch 0 commit <sha>" or "feed"
  Phase phase = Phase::k_seen;
  std::string stamp;   // the intake stamp an ignored or refused revision was judged under
  int attempts = 0;    // fetches or gates that failed for the machine's or the inbox's sake
  std::string family;  // series/revision_identity.h, once fetched
  std::string identity;
  std::string series_dir;
  std::string gate_run;       // the gate's run directory
  std::string verdict;        // "PASS", "FAIL", "PASS, warning: ..."
  std::string compared_with;  // the previous revision's message-id, if any
  std::string answer;         // the whole mail, once gated
  std::string note;           // why it was ignored or refused, what went wrong
};

struct EpochCursor {
  std::string url;
  std::string commit;       // the newest commit read ("" before the first)
  std::int64_t time = 0;    // its commit time
  std::string fingerprint;  // the manifest's, when the commit was read
};

struct ArchiveCursor {
  std::map<int, EpochCursor> epochs;
  std::string list_address;    // the inbox's, read once
  std::string feed_newest;     // the newest <updated> of the last feed read
  std::string feed_newest_id;  // its newest entry's message-id
  bool feed_read = false;
};

struct PollRecord {
  std::string started;  // ISO 8601 UTC
  std::string finished;
  std::string last_ok;  // the last poll that read the inbox
  int failures = 0;     // polls failed in a row
  std::string last_error;
  std::string next_poll;  // when the service polls next
  std::string source;     // "archive: epochs 0..2" or "feed (no git epochs)"
};

class WatchState {
 public:
  // Reads every revision file in DIR (created if missing). Throws
  // Error(k_usage) naming a file that is not a watch state file.
  explicit WatchState(std::filesystem::path dir);
  // Every revision recorded, in the order they were first seen.
  std::vector<RevisionState> all() const;
  const RevisionState* find(const std::string& message_id) const;
  void save(const RevisionState& state);  // atomically
  const std::filesystem::path& dir() const { return m_dir; }
  static std::string key_of(const std::string& message_id);

  ArchiveCursor cursor() const;
  void save_cursor(const ArchiveCursor& cursor) const;
  PollRecord poll_record() const;
  void save_poll_record(const PollRecord& record) const;

 private:
  std::filesystem::path m_dir;
  std::map<std::string, std::pair<std::int64_t, RevisionState>> m_by_id;
  std::int64_t m_next_order = 1;
};

// The lock that makes one watcher the only one on DIR: nullopt, with HOLDER
// saying who has it, when another process does.
std::optional<FileLock> lock_watch_state(const std::filesystem::path& dir, const std::string& what,
                                         std::string& holder);

}  // namespace kseries::watch
