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
// Converted to UTF-8 as `git am` does: text in a declared charset (the body's
// Content-Type, an RFC 2047 word's label) by iconv, as git mailinfo does;
// bytes that are not UTF-8 in undeclared text (raw header bytes, a body
// without a charset) read as Latin-1, as git's commit_tree re-encodes them
// ("commit message did not conform to UTF-8"). Bytes that break a declared
// charset become U+FFFD (git am would read them as Latin-1 too: a declared
// UTF-8 with stray bytes is damaged text, not Latin-1). Each case adds a
// note naming file:line.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kseries {

// The charset= parameter of a Content-Type header ("text/plain; charset=...")
// in lower case, "" when there is none.
std::string content_type_charset(std::string_view content_type);

struct Utf8Text {
  std::string text;
  std::size_t replaced = 0;      // bytes invalid in the declared charset, now U+FFFD each
  std::size_t latin1 = 0;        // bytes of undeclared text read as Latin-1
  bool unknown_charset = false;  // iconv does not know it: read as undeclared
  std::size_t first_bad = std::string::npos;  // offset in the input of the first such byte
};
// `bytes` in `charset` ("" undeclared; "utf-8"; any name iconv knows, case
// insensitive) as valid UTF-8, by the rules above.
Utf8Text to_utf8(std::string_view bytes, std::string_view charset);
// What became of the bytes, for a note ("1 byte(s) not UTF-8 and no charset
// declared: read as Latin-1, as git am does"); "" when nothing did.
std::string conversion_note(const Utf8Text& converted, std::string_view charset);

enum class CommitField { k_author_name, k_author_email, k_subject, k_message };

// Where a text starts: its file and 1-based line (a message counts on from it).
struct TextOrigin {
  std::filesystem::path file;
  int line = 1;
};

// `text` (in `charset`) converted, then checked for `field` by the rules
// above. Throws Error(k_usage) "file:line: ..."; appends to `notes` when
// bytes were read as Latin-1 or replaced.
std::string commit_text(std::string_view text, CommitField field, std::string_view charset,
                        const TextOrigin& origin, std::vector<std::string>& notes);

}  // namespace kseries
