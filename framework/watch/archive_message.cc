#include "watch/archive_message.h"

#include <algorithm>

#include "core/text.h"
#include "watch/gmime_handles.h"
#include "watch/header_text.h"

namespace kseries::watch {

namespace {

// The header block: up to the first empty line, an mbox "From " line
// dropped, at most k_max_message_header_bytes (cut at a line end).
std::string header_block(std::string_view text) {
  if (starts_with(text, "From ")) {
    const auto newline = text.find('\n');
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  }
  std::size_t end = text.size();
  for (std::size_t at = 0; at < text.size();) {
    const auto newline = text.find('\n', at);
    const std::size_t line_end = newline == std::string_view::npos ? text.size() : newline;
    if (trim(text.substr(at, line_end - at)).empty()) {
      end = at;
      break;
    }
    at = line_end + 1;
  }
  if (end > k_max_message_header_bytes) {
    end = text.rfind('\n', k_max_message_header_bytes);
    end = end == std::string_view::npos ? 0 : end + 1;
  }
  return std::string(text.substr(0, end)) + "\n";
}

std::string message_id_text(const char* id) {
  const std::string text = id ? header_text(id, 300) : "";
  return sane_message_id(text) ? text : "";
}

std::vector<std::string> reference_list(GMimeObject* object, const char* header) {
  std::vector<std::string> ids;
  const char* value = g_mime_object_get_header(object, header);
  if (!value) {
    return ids;
  }
  const ReferencesPtr refs(g_mime_references_parse(nullptr, value));
  const int count = refs ? g_mime_references_length(refs.get()) : 0;
  for (int i = 0; i < count; ++i) {
    const std::string id = message_id_text(g_mime_references_get_message_id(refs.get(), i));
    if (!id.empty()) {
      ids.push_back(id);
    }
  }
  return ids;
}

void read_author(GMimeMessage* message, ArchiveMessage& out) {
  InternetAddressList* from = g_mime_message_get_from(message);
  if (!from || internet_address_list_length(from) < 1) {
    return;
  }
  InternetAddress* address = internet_address_list_get_address(from, 0);
  if (const char* name = internet_address_get_name(address)) {
    out.author_name = header_text(name, 200);
  }
  if (INTERNET_ADDRESS_IS_MAILBOX(address)) {
    const char* addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(address));
    out.author_email = addr ? header_text(addr, 254) : "";
  }
}

std::string iso_date(GMimeMessage* message) {
  GDateTime* date = g_mime_message_get_date(message);
  if (!date) {
    return "";
  }
  GDateTime* utc = g_date_time_to_utc(date);
  if (!utc) {
    return "";
  }
  const GCharPtr text(g_date_time_format(utc, "%Y-%m-%dT%H:%M:%SZ"));
  g_date_time_unref(utc);
  return text ? std::string(text.get()) : "";
}

}  // namespace

bool sane_message_id(std::string_view id) {
  // One '@' (RFC 5322: id-left "@" id-right, neither holding one): GMime
  // writes an id with two as far as its last '@' (the inbox fuzzer: the
  // answer's In-Reply-To did not read back as the id).
  if (id.empty() || id.size() > 250 || std::count(id.begin(), id.end(), '@') != 1) {
    return false;
  }
  // An id-right GMime reads as a dot-atom: it stops at ".." and drops a
  // final '.' (the inbox fuzzer: "a@example..com" was answered as a reply
  // to "a@example").
  const std::string_view right = id.substr(id.find('@') + 1);
  if (id.front() == '@' || right.empty() || right.back() == '.' ||
      right.find("..") != std::string_view::npos) {
    return false;
  }
  return std::none_of(id.begin(), id.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    // RFC 5322's specials: GMime reads an id only up to one (a ';'
    // ended the answer's In-Reply-To there; a '(' starts a comment).
    return u <= 0x20 || u >= 0x7f || c == '<' || c == '>' || c == '/' || c == '(' || c == ')' ||
           c == '"' || c == '\\' || c == ',' || c == ';' || c == ':' || c == '[' || c == ']';
  });
}

namespace {

ArchiveMessage read_message(GMimeMessage* message) {
  ArchiveMessage out;
  out.message_id = message_id_text(g_mime_message_get_message_id(message));
  if (const char* subject = g_mime_message_get_subject(message)) {
    out.subject = header_text(subject);
  }
  read_author(message, out);
  out.date = iso_date(message);
  const auto in_reply_to = reference_list(GMIME_OBJECT(message), "In-Reply-To");
  out.in_reply_to = in_reply_to.empty() ? "" : in_reply_to.front();
  std::vector<std::string> all;
  for (const auto& list : {reference_list(GMIME_OBJECT(message), "References"), in_reply_to}) {
    for (const auto& id : list) {
      if (std::find(all.begin(), all.end(), id) == all.end()) {
        all.push_back(id);
      }
    }
  }
  // A long thread: its root end and its newest end (the parent) are kept.
  const std::size_t half = k_max_references / 2;
  if (all.size() > k_max_references) {
    all.erase(all.begin() + half, all.end() - half);
  }
  out.references = std::move(all);
  return out;
}

}  // namespace

ArchiveMessage parse_archive_message(std::string_view text) {
  ensure_gmime();
  const std::string headers = header_block(text);
  const GObjectPtr<GMimeStream> stream(
      g_mime_stream_mem_new_with_buffer(headers.data(), headers.size()));
  const GObjectPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  const GObjectPtr<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), nullptr));
  return message ? read_message(message.get()) : ArchiveMessage{};
}

std::vector<ArchiveMessage> parse_mbox_messages(std::string_view mbox) {
  ensure_gmime();
  const GObjectPtr<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(mbox.data(), mbox.size()));
  const GObjectPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  g_mime_parser_set_format(parser.get(), GMIME_FORMAT_MBOX);
  std::vector<ArchiveMessage> messages;
  while (!g_mime_parser_eos(parser.get())) {
    const GObjectPtr<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), nullptr));
    if (!message) {
      break;
    }
    messages.push_back(read_message(message.get()));
  }
  return messages;
}

}  // namespace kseries::watch
