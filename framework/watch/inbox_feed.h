#pragma once
// A public-inbox archive's Atom feed (`<inbox>/new.atom`): the inbox's
// newest messages (25 in public-inbox 1.9), newest first. The watch reads it
// only when the inbox offers no git epochs (inbox_archive.h), because a
// message pushed out of that window between two polls is never in it. The
// feed is hostile input: bounded in size and count, every field cleaned,
// nothing but these fields kept.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "watch/archive_message.h"

namespace kseries::watch {

inline constexpr std::size_t k_max_feed_bytes = 4u << 20;
inline constexpr std::size_t k_max_feed_entries = 1000;

struct Feed {
  std::string list_address;              // from <id>mailto:ADDR</id>, else ""
  std::vector<ArchiveMessage> messages;  // every usable entry, oldest first
  std::size_t entries = 0;               // <entry> elements read
  std::size_t unusable = 0;              // no message-id under the inbox's URL
  std::string oldest;                    // the oldest <updated> of any entry
  std::string newest;
  std::string newest_id;  // the first usable entry's message-id (the newest)
};

// INBOX_URL is the inbox's base URL ("http://127.0.0.1:8080/toy"); links
// outside it are ignored. An entry's `date` is its <updated>, `in_reply_to`
// its thr:in-reply-to. Throws Error(k_usage) when TEXT is not an Atom feed or
// is larger than k_max_feed_bytes.
Feed parse_feed(std::string_view text, std::string_view inbox_url);

}  // namespace kseries::watch
