#pragma once
// One message of a public-inbox archive (the file `m` of an epoch's commit,
// or a cover letter b4 wrote), read as the watch needs it: who sent it, what
// it is called, which message it answers. The headers are parsed by GMime
// (RFC 5322 folding, RFC 2047 encoded words, address lists); every field is
// then cleaned (header_text.h). Hostile input: only the header block is
// read, at most k_max_message_header_bytes of it.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::watch {

inline constexpr std::size_t k_max_message_header_bytes = 256 * 1024;
inline constexpr std::size_t k_max_references = 64;

struct ArchiveMessage {
  std::string message_id;  // no angle brackets; "" when it has none
  std::string subject;     // decoded, one line
  std::string author_name;
  std::string author_email;             // "" when From: holds no single valid mailbox
  std::string date;                     // the Date: header, ISO 8601 in UTC ("" when unreadable)
  std::string in_reply_to;              // the first message-id of In-Reply-To:
  std::vector<std::string> references;  // References: then In-Reply-To:, each once
};

// TEXT is a whole message or its header block alone.
ArchiveMessage parse_archive_message(std::string_view text);

// Every message of an mbox (b4's output: "From " lines between messages),
// each read as parse_archive_message reads one.
std::vector<ArchiveMessage> parse_mbox_messages(std::string_view mbox);

// A message-id fit for a URL path, a file key and a header: 1 to 250
// printable ASCII characters, an '@', no space, '<', '>' or '/'.
bool sane_message_id(std::string_view id);

}  // namespace kseries::watch
