#include "series/mail_text.h"

#include <iconv.h>

#include <algorithm>
#include <cerrno>

#include "core/error.h"
#include "core/text.h"
#include "core/utf8.h"

namespace kseries {
namespace {

bool is_utf8_name(std::string_view name) { return name == "utf-8" || name == "utf8"; }

// A charset name as RFC 2978 registers them (letters, digits and a little
// punctuation, at most 40): anything else is unknown without asking iconv.
bool plausible_charset_name(std::string_view name) {
  if (name.empty() || name.size() > 40) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
           c == ':';
  });
}

void note_bad(Utf8Text& out, std::size_t offset) {
  if (out.first_bad == std::string::npos) {
    out.first_bad = offset;
  }
}

// Valid UTF-8 kept; every other byte read as Latin-1 (undeclared) or
// replaced with U+FFFD (declared UTF-8), as counted in `out`.
void utf8_or(std::string_view bytes, bool latin1, Utf8Text& out) {
  for (std::size_t i = 0; i < bytes.size();) {
    const Utf8Char c = next_utf8_char(bytes.substr(i));
    if (c.length > 0) {
      out.text.append(bytes.substr(i, c.length));
      i += c.length;
      continue;
    }
    note_bad(out, i);
    const auto byte = static_cast<unsigned char>(bytes[i++]);
    if (latin1) {
      out.text += static_cast<char>(0xC0 | (byte >> 6));
      out.text += static_cast<char>(0x80 | (byte & 0x3F));
      ++out.latin1;
    } else {
      out.text += k_replacement_char;
      ++out.replaced;
    }
  }
}

// glibc's iconv from `cd`'s charset to UTF-8; a byte it cannot convert (or a
// sequence cut short at the end) becomes U+FFFD and the conversion goes on.
void iconv_to_utf8(iconv_t cd, std::string_view bytes, Utf8Text& out) {
  std::string converted;
  char* in = const_cast<char*>(bytes.data());
  std::size_t in_left = bytes.size();
  char buffer[4096];
  while (true) {
    char* out_ptr = buffer;
    std::size_t out_left = sizeof buffer;
    const std::size_t result = in_left > 0 ? iconv(cd, &in, &in_left, &out_ptr, &out_left)
                                           : iconv(cd, nullptr, nullptr, &out_ptr, &out_left);
    converted.append(buffer, static_cast<std::size_t>(out_ptr - buffer));
    if (result != static_cast<std::size_t>(-1)) {
      if (in_left == 0 && out_ptr == buffer) {
        break;  // input done and the shift state flushed
      }
      continue;
    }
    if (errno == E2BIG) {
      continue;
    }
    if (in_left == 0) {
      break;  // not expected: a flush that failed
    }
    // EILSEQ or EINVAL: the byte at `in` does not start a character.
    note_bad(out, static_cast<std::size_t>(in - bytes.data()));
    converted += k_replacement_char;
    ++out.replaced;
    ++in;
    --in_left;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  // iconv writes UTF-8, but check rather than trust: the result must be.
  Utf8Text checked;
  utf8_or(converted, false, checked);
  out.text += checked.text;
  out.replaced += checked.replaced;
}

}  // namespace

std::string content_type_charset(std::string_view content_type) {
  const std::string lower = to_lower(content_type);
  const auto at = lower.find("charset=");
  if (at == std::string::npos) {
    return "";
  }
  std::string_view value = std::string_view(lower).substr(at + 8);
  if (starts_with(value, "\"")) {
    value = value.substr(1, value.find('"', 1) - 1);  // npos - 1: to the end
  } else {
    value = value.substr(0, value.find_first_of("; \t"));
  }
  return std::string(trim(value));
}

Utf8Text to_utf8(std::string_view bytes, std::string_view charset) {
  Utf8Text out;
  out.text.reserve(bytes.size());
  const std::string name = to_lower(trim(charset));
  if (name.empty() || is_utf8_name(name)) {
    utf8_or(bytes, name.empty(), out);
    return out;
  }
  const iconv_t cd = plausible_charset_name(name) ? iconv_open("UTF-8", name.c_str())
                                                  : reinterpret_cast<iconv_t>(-1);
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    out.unknown_charset = true;
    utf8_or(bytes, true, out);
    return out;
  }
  iconv_to_utf8(cd, bytes, out);
  iconv_close(cd);
  return out;
}

std::string conversion_note(const Utf8Text& converted, std::string_view charset) {
  std::string note;
  if (converted.latin1 == 0 && converted.replaced == 0) {
    return note;  // an unknown label on plain ASCII changes nothing
  }
  if (converted.unknown_charset) {
    note = "unknown charset '" + valid_utf8(charset.substr(0, 40)) + "'";
  }
  if (converted.latin1 > 0) {
    note += (note.empty() ? "" : ": ") + std::to_string(converted.latin1) + " byte(s) not UTF-8" +
            (converted.unknown_charset ? "" : " and no charset declared") +
            ": read as Latin-1, as git am does";
  }
  if (converted.replaced > 0) {
    note += (note.empty() ? "" : "; ") + std::to_string(converted.replaced) +
            " byte(s) not valid in the declared charset '" + valid_utf8(charset.substr(0, 40)) +
            "': replaced with U+FFFD";
  }
  return note;
}

namespace {

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
std::string quoted(std::string_view text) {
  std::string out;
  for (const char c : valid_utf8(text.substr(0, 80))) {
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

std::string commit_text(std::string_view raw, CommitField field, std::string_view charset,
                        const TextOrigin& origin, std::vector<std::string>& notes) {
  // Checked after the conversion: a charset such as UTF-7 or UTF-16 can
  // spell a line break or a NUL in bytes that hold none.
  Utf8Text converted = to_utf8(raw, charset);
  const std::string_view text = converted.text;
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
                        quoted(text.substr(line_start, line_end - line_start)) + "'");
    }
  }
  if (const std::string note = conversion_note(converted, charset); !note.empty()) {
    const size_t first = std::min(converted.first_bad, raw.size());
    notes.push_back(where(origin, raw, first) + ": " + field_name(field) + ": " + note);
  }
  return std::move(converted.text);
}

}  // namespace kseries
