#pragma once
// UTF-8 checked at the boundary: text from outside (a console, a compiler, a
// guest, a mail) may hold any byte; everything kseries writes (JSON, XML,
// text reports) wants valid UTF-8. One decoder, used by every cleaner.

#include <cstddef>
#include <string>
#include <string_view>

namespace kseries {

inline constexpr std::string_view k_replacement_char = "\xEF\xBF\xBD";  // U+FFFD

struct Utf8Char {
  std::size_t length = 0;  // 0: the bytes at the start are not a UTF-8 character
  char32_t code = 0;
};

// The well-formed UTF-8 character at the start of `text` (not empty): ASCII
// is one byte; overlong forms, surrogates, code points past U+10FFFF and cut
// sequences have length 0.
Utf8Char next_utf8_char(std::string_view text);

// `text` with every byte that does not belong to a well-formed UTF-8
// character replaced by U+FFFD (one per byte, as the WHATWG decoder does for
// stray bytes). Controls and NUL are kept: they are valid UTF-8.
std::string valid_utf8(std::string_view text);

// The one sanitiser for text that reaches a terminal or a text report
// (gate.txt, stdout, progress): valid_utf8(), then every C0 control but
// newline and tab, DEL, and a carriage return not ending a line, shown as
// its Unicode control picture (ESC -> U+241B, so "ESC[2K" cannot erase a
// line, retitle a window or write the clipboard); C1 controls (U+0080 to
// U+009F, an 8-bit CSI among them) and the bidirectional overrides and
// isolates (U+202A-U+202E, U+2066-U+2069) that hide or reorder text become
// U+FFFD. Idempotent.
std::string printable_text(std::string_view text);

// Untrusted text as one line of a mail header or a feed's field: every C0
// control (newlines too) and DEL a space, at most MAX bytes. The one rule
// for it (the answer mail's headers, the inbox feed's fields).
std::string one_line(std::string_view text, std::size_t max);

}  // namespace kseries
