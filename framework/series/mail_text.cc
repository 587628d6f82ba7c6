#include "series/mail_text.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"

namespace kseries {
namespace {

// Length of the well-formed UTF-8 sequence at text[pos], 0 if there is none
// (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF).
size_t utf8_sequence(std::string_view text, size_t pos) {
  const auto byte = [&](size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u;
  };
  const unsigned lead = byte(pos);
  auto continuation = [&](size_t i, unsigned low = 0x80, unsigned high = 0xbf) {
    return byte(i) >= low && byte(i) <= high;
  };
  if (lead < 0x80) {
    return 1;
  }
  if (lead >= 0xc2 && lead <= 0xdf) {
    return continuation(pos + 1) ? 2 : 0;
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    const unsigned low = lead == 0xe0 ? 0xa0 : 0x80;   // no overlong forms
    const unsigned high = lead == 0xed ? 0x9f : 0xbf;  // no surrogates
    return continuation(pos + 1, low, high) && continuation(pos + 2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const unsigned low = lead == 0xf0 ? 0x90 : 0x80;
    const unsigned high = lead == 0xf4 ? 0x8f : 0xbf;  // at most U+10FFFF
    return continuation(pos + 1, low, high) && continuation(pos + 2) && continuation(pos + 3) ? 4
                                                                                              : 0;
  }
  return 0;
}

const char* field_name(CommitField field) {
  switch (field) {
    case CommitField::k_author_name:
      return "the author name";
    case CommitField::k_author_email:
      return "the author email";
    case CommitField::k_subject:
      return "the subject";
    case CommitField::k_message:
      return "the commit message";
  }
  return "the text";
}

std::string where(const TextOrigin& origin, std::string_view text, size_t offset) {
  const int line =
      origin.line + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
  return origin.file.string() + ":" + std::to_string(line);
}

// Up to 80 bytes of `text` for a message, control characters shown escaped.
std::string quoted(std::string_view text, Charset charset) {
  std::string out;
  for (const char c : to_utf8(text.substr(0, 80), charset).text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\0') {
      out += "\\0";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out + (text.size() > 80 ? "..." : "");
}

}  // namespace

Charset charset_from_name(std::string_view name) {
  std::string lower = to_lower(trim(name));
  lower.erase(std::remove(lower.begin(), lower.end(), '"'), lower.end());
  for (const char* latin1 : {"iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1",
                             "iso-8859-15", "iso8859-15", "latin9"}) {
    if (lower == latin1) {
      return Charset::k_latin1;
    }
  }
  return Charset::k_utf8;
}

Charset content_type_charset(std::string_view content_type) {
  const std::string lower = to_lower(content_type);
  const auto at = lower.find("charset=");
  if (at == std::string::npos) {
    return Charset::k_utf8;
  }
  std::string_view value = std::string_view(content_type).substr(at + 8);
  value = value.substr(0, value.find_first_of("; \t"));
  return charset_from_name(value);
}

Utf8Text to_utf8(std::string_view bytes, Charset charset) {
  Utf8Text out;
  out.text.reserve(bytes.size());
  for (size_t pos = 0; pos < bytes.size();) {
    const auto c = static_cast<unsigned char>(bytes[pos]);
    if (charset == Charset::k_latin1) {
      if (c < 0x80) {
        out.text += static_cast<char>(c);
      } else {
        out.text += static_cast<char>(0xc0 | (c >> 6));
        out.text += static_cast<char>(0x80 | (c & 0x3f));
      }
      ++pos;
      continue;
    }
    const size_t length = utf8_sequence(bytes, pos);
    if (length == 0) {
      out.text += "\xEF\xBF\xBD";  // U+FFFD
      ++out.replaced;
      ++pos;
    } else {
      out.text.append(bytes.substr(pos, length));
      pos += length;
    }
  }
  return out;
}

std::string commit_text(std::string_view text, CommitField field, Charset charset,
                        const TextOrigin& origin, std::vector<std::string>& notes) {
  const bool header = field != CommitField::k_message;
  const bool identity = field == CommitField::k_author_name || field == CommitField::k_author_email;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool nul = c == '\0';
    const bool line_break = header && (c == '\n' || c == '\r');
    const bool bracket = identity && (c == '<' || c == '>');
    if (nul || line_break || bracket) {
      // A header is quoted whole, a message by the line at fault.
      const size_t line_start = header ? 0 : text.rfind('\n', i) + 1;  // npos + 1 == 0
      const size_t line_end = header ? text.size() : text.find('\n', i);
      throw usage_error(where(origin, text, i) + ": " + field_name(field) + " contains " +
                        (nul          ? "a NUL byte"
                         : line_break ? "a line break"
                                      : "a '<' or '>'") +
                        (nul ? "" : " (a forged commit header?)") + ": '" +
                        quoted(text.substr(line_start, line_end - line_start), charset) + "'");
    }
  }
  Utf8Text clean = to_utf8(text, charset);
  if (clean.replaced > 0) {
    size_t first = 0;
    while (utf8_sequence(text, first) != 0) {
      first += utf8_sequence(text, first);
    }
    notes.push_back(where(origin, text, first) + ": " + std::to_string(clean.replaced) +
                    " byte(s) of " + field_name(field) +
                    " are not UTF-8 (nor in a declared Latin-1 charset); replaced with U+FFFD");
  }
  return std::move(clean.text);
}

}  // namespace kseries
