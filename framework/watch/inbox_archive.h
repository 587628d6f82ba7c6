#pragma once
// A public-inbox archive read as git, as grokmirror and lei follow lore: the
// inbox's manifest (`<inbox>/manifest.js.gz`, grokmirror's format) lists its
// v2 epochs (`<inbox>/git/N.git`), each a git repository in which every
// message is one commit (the message in the file `m`), in the order the
// archive took them. A mirror of an epoch is fetched with plain `git fetch`
// (size-capped while it streams: `prlimit --fsize`, the pack kept whole) and
// read with libgit2 from a cursor: every commit after it, oldest first, so
// no message between two polls is missed however many arrived.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sys/process.h"
#include "watch/archive_message.h"

namespace kseries::watch {

inline constexpr std::size_t k_max_manifest_bytes = 1u << 20;            // gzipped
inline constexpr std::size_t k_max_manifest_json_bytes = 16u << 20;      // inflated
inline constexpr std::uintmax_t k_default_max_fetch_bytes = 4ull << 30;  // one epoch's pack

struct Epoch {
  int number = 0;
  std::string url;            // what git fetches
  std::int64_t modified = 0;  // the manifest's "modified" (seconds), 0 if none
  std::string fingerprint;    // the manifest's, "" if none
};

// The inbox's epochs from its manifest (JSON), oldest first: the keys
// "<inbox path>/git/<N>.git" below INBOX_URL's path. Throws Error(k_usage)
// when TEXT is not a JSON object.
std::vector<Epoch> parse_manifest(std::string_view text, std::string_view inbox_url);

// gzip's DATA inflated; Error(k_usage) when it is not gzip or inflates to
// more than MAX_BYTES.
std::string gunzip(std::string_view data, std::size_t max_bytes);

// A message as the archive holds it.
struct EpochMessage {
  std::string commit;
  std::int64_t time = 0;  // the commit's time: when the archive took it
  ArchiveMessage message;
};

// A bare mirror of one epoch, under the watch's state.
class EpochMirror {
 public:
  explicit EpochMirror(std::filesystem::path dir);
  // `git fetch` of the epoch's master: its commit after the fetch ("" for an
  // epoch with no message yet). Error(k_infrastructure) when git fails or
  // the pack passes MAX_BYTES (said so).
  std::string fetch(ProcessRunner& runner, const std::string& url, std::uintmax_t max_bytes) const;
  bool has_commit(const std::string& commit) const;
  // The newest commit of TIP's history whose time is before TIME; "" when none.
  std::string last_before(const std::string& tip, std::int64_t time) const;
  std::int64_t commit_time(const std::string& commit) const;
  // Every commit of TIP's history that FROM's does not have ("": all), oldest
  // first; with FROM unknown to the mirror (history rewritten by a purge),
  // every commit newer than AFTER_TIME. A commit without `m` (a deletion) is
  // passed over.
  void walk(const std::string& from, std::int64_t after_time, const std::string& tip,
            const std::function<void(const EpochMessage&)>& visit) const;
  const std::filesystem::path& dir() const { return m_dir; }

 private:
  std::filesystem::path m_dir;
};

}  // namespace kseries::watch
