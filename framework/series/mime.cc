#include "series/mime.h"

#include <gmime/gmime.h>

#include <memory>
#include <mutex>

#include "core/text.h"

namespace kseries {
namespace {

// GObject references released with g_object_unref, g_malloc'd strings
// with g_free.
struct ObjectUnref {
  void operator()(gpointer object) const { g_object_unref(object); }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, ObjectUnref>;
struct GFree {
  void operator()(gpointer memory) const { g_free(memory); }
};
using GString = std::unique_ptr<char, GFree>;

// GMime's global state (charset tables, the iconv cache) is set up once per
// process; the parser options are shared read-only after that.
GMimeParserOptions* options() {
  static GMimeParserOptions* shared = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    g_mime_init();
    shared = g_mime_parser_options_new();
    // Undeclared 8-bit header text: UTF-8 when it is, else Latin-1 (which
    // reads every byte), as git am reads it.
    static const char* fallback[] = {"utf-8", "iso-8859-1", nullptr};
    g_mime_parser_options_set_fallback_charsets(shared, fallback);
    g_mime_parser_options_set_rfc2047_compliance_mode(shared, GMIME_RFC_COMPLIANCE_LOOSE);
  });
  return shared;
}

std::string unfold(const char* raw) {
  std::string out;
  for (const char* c = raw; c != nullptr && *c != '\0'; ++c) {
    if (*c != '\r' && *c != '\n') {
      out += *c;
    }
  }
  return std::string(trim(out));
}

// Parts that hold neither a commit message nor a patch: a signature, media.
bool skipped_type(GMimeContentType* type) {
  const char* media = g_mime_content_type_get_media_type(type);
  const std::string kind = to_lower(media == nullptr ? "" : media);
  const char* sub = g_mime_content_type_get_media_subtype(type);
  const std::string subtype = to_lower(sub == nullptr ? "" : sub);
  if (kind == "image" || kind == "audio" || kind == "video") {
    return true;
  }
  return kind == "application" && (subtype == "pgp-signature" || subtype == "pkcs7-signature" ||
                                   subtype == "x-pkcs7-signature");
}

std::string decoded_content(GMimePart* part) {
  GMimeDataWrapper* content = g_mime_part_get_content(part);
  if (content == nullptr) {
    return "";
  }
  GObjectPtr<GMimeStream> out(g_mime_stream_mem_new());
  g_mime_data_wrapper_write_to_stream(content, out.get());
  GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(out.get()));
  return std::string(reinterpret_cast<const char*>(bytes->data), bytes->len);
}

void add_part(GMimeObject* /*parent*/, GMimeObject* object, gpointer data) {
  auto& message = *static_cast<MimeMessage*>(data);
  if (GMIME_IS_MULTIPART(object)) {
    message.multipart = true;
    return;
  }
  if (!GMIME_IS_PART(object) || skipped_type(g_mime_object_get_content_type(object))) {
    ++message.skipped_parts;  // also a message/rfc822 part: not decoded text
    return;
  }
  const bool first = message.text.empty() && message.charset.empty();
  std::string text = decoded_content(GMIME_PART(object));
  if (!text.empty() && text.back() != '\n') {
    text += '\n';  // the line break before a boundary belongs to the boundary
  }
  if (first) {
    const char* charset = g_mime_object_get_content_type_parameter(object, "charset");
    message.charset = to_lower(charset == nullptr ? "" : charset);
  }
  message.text += text;
}

std::optional<MimeMailbox> first_mailbox(InternetAddressList* list) {
  const int count = list == nullptr ? 0 : internet_address_list_length(list);
  for (int i = 0; i < count; ++i) {
    InternetAddress* address = internet_address_list_get_address(list, i);
    if (INTERNET_ADDRESS_IS_GROUP(address)) {
      if (auto inner =
              first_mailbox(internet_address_group_get_members(INTERNET_ADDRESS_GROUP(address)))) {
        return inner;
      }
      continue;
    }
    if (INTERNET_ADDRESS_IS_MAILBOX(address)) {
      const char* name = internet_address_get_name(address);
      const char* email = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(address));
      return MimeMailbox{name == nullptr ? "" : name, email == nullptr ? "" : email};
    }
  }
  return std::nullopt;
}

}  // namespace

MimeMessage parse_mime(std::string_view bytes) {
  GMimeParserOptions* parser_options = options();
  MimeMessage out;
  GObjectPtr<GMimeStream> stream(
      g_mime_stream_mem_new_with_buffer(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  GObjectPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  g_mime_parser_set_format(parser.get(), GMIME_FORMAT_MESSAGE);
  GObjectPtr<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), parser_options));
  if (!message) {
    return out;
  }
  GMimeHeaderList* list = g_mime_object_get_header_list(GMIME_OBJECT(message.get()));
  const int count = list == nullptr ? 0 : g_mime_header_list_get_count(list);
  for (int i = 0; i < count; ++i) {
    GMimeHeader* header = g_mime_header_list_get_header_at(list, i);
    const char* name = g_mime_header_get_name(header);
    out.headers.emplace_back(name == nullptr ? "" : name,
                             unfold(g_mime_header_get_raw_value(header)));
  }
  g_mime_message_foreach(message.get(), add_part, &out);
  return out;
}

std::string decode_header_text(std::string_view raw) {
  const std::string text(raw);
  GString decoded(g_mime_utils_header_decode_text(options(), text.c_str()));
  return decoded ? std::string(decoded.get()) : std::string();
}

std::optional<MimeMailbox> parse_mailbox(std::string_view raw) {
  const std::string text(raw);
  GObjectPtr<InternetAddressList> list(internet_address_list_parse(options(), text.c_str()));
  return first_mailbox(list.get());
}

}  // namespace kseries
