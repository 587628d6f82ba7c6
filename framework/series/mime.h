#pragma once
// MIME as GMime 3 (the library notmuch and Evolution build on) reads it:
// one message's header fields, its body parts, their transfer encodings
// (quoted-printable, base64) and charsets, and RFC 2047 encoded words in
// headers. kseries decodes no MIME by hand.
//
// GMime bounds what hostile mail can cost: multipart nesting stops at its
// depth limit (1024) and every decoder runs in linear time.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kseries {

struct MimeMessage {
  // Header fields in order: the name as written, the value unfolded (line
  // breaks of folding removed) and trimmed, not 2047-decoded.
  std::vector<std::pair<std::string, std::string>> headers;
  // The body as git mailinfo reads it: every leaf part in order, decoded
  // from its transfer encoding, each ending in a line break; a part that can
  // hold no patch or message text (a signature, an image, audio, video) is
  // left out.
  std::string text;
  std::string charset;  // the first part's charset= parameter, lower case ("" none)
  bool multipart = false;
  std::size_t skipped_parts = 0;  // parts left out of `text`
};

// GMime's reading of one message (headers, a blank line, the body). Never
// throws; a message GMime cannot read at all has no headers.
MimeMessage parse_mime(std::string_view bytes);

// RFC 2047 encoded words of a header value decoded to UTF-8 (each word from
// its charset); raw 8-bit text between them read as UTF-8 when it is, else
// as Latin-1, as git am reads undeclared bytes.
std::string decode_header_text(std::string_view raw);

struct MimeMailbox {
  std::string name;  // display name (or comment), decoded; "" when none
  std::string email;
};
// The first mailbox of an address list ("Name <a@b>", "a@b (Name)",
// encoded words decoded); nullopt when there is none.
std::optional<MimeMailbox> parse_mailbox(std::string_view raw);

}  // namespace kseries
