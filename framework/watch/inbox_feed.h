#pragma once
// A public-inbox archive's Atom feed (`<inbox>/new.atom`, the newest
// messages first) read as the watch needs it: which messages start a series
// revision (a 0/N cover letter, or a patch posted on its own), by whom, and
// the list's address. The feed is hostile input: bounded in size and count,
// every field cleaned, nothing but these fields kept.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::watch {

inline constexpr std::size_t k_max_feed_bytes = 4u << 20;
inline constexpr std::size_t k_max_feed_entries = 1000;

struct FeedEntry {
  std::string message_id;  // from the entry's link, percent-decoded, no brackets
  std::string title;       // the subject
  std::string author_name;
  std::string author_email;
  std::string updated;  // as in the feed (ISO 8601)
  int revision = 1;
  int total = 0;  // patches in the series (N of 0/N); 1 for a single patch
};

struct Feed {
  std::string list_address;          // from <id>mailto:ADDR</id>, else ""
  std::vector<FeedEntry> revisions;  // series starts only, oldest first
  std::size_t skipped = 0;           // replies, patches of a series with a cover
};

// INBOX_URL is the inbox's base URL ("http://127.0.0.1:8080/toy"); links
// outside it are ignored. Throws Error(k_usage) when TEXT is not an Atom
// feed or is larger than k_max_feed_bytes.
Feed parse_feed(std::string_view text, std::string_view inbox_url);

}  // namespace kseries::watch
