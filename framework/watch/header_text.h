#pragma once
// The one cleaner of text from outside (a feed, an archive message, b4's
// output) that goes into a watch state, a report line or a mail header:
// valid UTF-8, one line (every control character a space), trimmed, and at
// most MAX bytes, cut only between two characters.

#include <cstddef>
#include <string>
#include <string_view>

namespace kseries::watch {

std::string header_text(std::string_view text, std::size_t max = 998);

// TEXT's first MAX bytes or fewer, never ending inside a UTF-8 character.
std::string utf8_prefix(std::string_view text, std::size_t max);

}  // namespace kseries::watch
