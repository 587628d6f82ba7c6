#pragma once
// Untrusted mail text made fit for a commit object, in one place: the author
// name and email, the subject and the message of every patch pass through
// commit_text() before anything reaches libgit2.
//
// Refused (Error(k_usage) naming file:line, exit 2), because honest mail never
// has them and cleaning would hide a forgery: a NUL byte anywhere (C strings
// would silently truncate the text); a line break in the author name or email
// or the subject (an encoded "=0A" would write extra commit header lines such
// as "committer" or "gpgsig", or split the title); '<' or '>' in the author
// name or email (they delimit the email in the commit header).
// Cleaned, as git mailinfo does: text in a declared ISO-8859-1/Latin-1
// charset is converted to UTF-8; any other byte that is not UTF-8 becomes
// U+FFFD, with a note naming file:line.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kseries {

enum class Charset { k_utf8, k_latin1 };

// "ISO-8859-1", "latin1"... -> k_latin1; anything else (UTF-8, US-ASCII,
// unknown) -> k_utf8, whose invalid bytes are replaced.
Charset charset_from_name(std::string_view name);
// The charset= parameter of a Content-Type header ("text/plain; charset=...").
Charset content_type_charset(std::string_view content_type);

struct Utf8Text {
  std::string text;
  std::size_t replaced = 0;  // bytes that were not UTF-8, now U+FFFD each
};
// `bytes` in `charset` as valid UTF-8.
Utf8Text to_utf8(std::string_view bytes, Charset charset);

enum class CommitField { k_author_name, k_author_email, k_subject, k_message };

// Where a text starts: its file and 1-based line (a message counts on from it).
struct TextOrigin {
  std::filesystem::path file;
  int line = 1;
};

// `text` (in `charset`) checked and cleaned for `field` by the rules above.
// Throws Error(k_usage) "file:line: ..."; appends to `notes` when bytes were
// replaced.
std::string commit_text(std::string_view text, CommitField field, Charset charset,
                        const TextOrigin& origin, std::vector<std::string>& notes);

}  // namespace kseries
