#include "watch/inbox_feed.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/text.h"
#include "watch/header_text.h"

namespace kseries::watch {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
        hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// "http://host/toy/ID/" -> "ID", when the link is below the inbox.
std::string message_id_of(std::string_view href, std::string_view inbox_url) {
  std::string base(inbox_url);
  if (base.empty() || base.back() != '/') {
    base += '/';
  }
  if (href.substr(0, base.size()) != base) {
    return "";
  }
  std::string_view rest = href.substr(base.size());
  if (!rest.empty() && rest.back() == '/') {
    rest.remove_suffix(1);
  }
  const std::string id = percent_decode(rest);
  return sane_message_id(id) ? id : "";
}

}  // namespace

Feed parse_feed(std::string_view text, std::string_view inbox_url) {
  if (text.size() > k_max_feed_bytes) {
    throw usage_error("inbox feed larger than " + std::to_string(k_max_feed_bytes >> 20) +
                      " MiB: refused");
  }
  pugi::xml_document doc;
  // No DOCTYPE, no entities beyond XML's own (pugixml expands none).
  const auto parsed =
      doc.load_buffer(text.data(), text.size(), pugi::parse_default & ~pugi::parse_doctype);
  const auto feed_node = doc.child("feed");
  if (!parsed || !feed_node) {
    throw usage_error(std::string("inbox feed is not Atom: ") +
                      (parsed ? "no <feed> element" : parsed.description()));
  }
  Feed feed;
  const std::string id = feed_node.child_value("id");
  if (starts_with(id, "mailto:")) {
    feed.list_address = header_text(id.substr(7), 254);
  }
  for (const auto entry : feed_node.children("entry")) {
    if (++feed.entries > k_max_feed_entries) {
      break;
    }
    ArchiveMessage item;
    item.subject = header_text(entry.child_value("title"));
    item.author_name = header_text(entry.child("author").child_value("name"), 200);
    item.author_email = header_text(entry.child("author").child_value("email"), 254);
    item.date = header_text(entry.child_value("updated"), 64);
    item.message_id = message_id_of(entry.child("link").attribute("href").value(), inbox_url);
    item.in_reply_to =
        message_id_of(entry.child("thr:in-reply-to").attribute("href").value(), inbox_url);
    if (!item.in_reply_to.empty()) {
      item.references.push_back(item.in_reply_to);
    }
    if (!item.date.empty()) {
      feed.oldest = feed.oldest.empty() ? item.date : std::min(feed.oldest, item.date);
      feed.newest = std::max(feed.newest, item.date);
    }
    if (item.message_id.empty()) {
      ++feed.unusable;
      continue;
    }
    if (feed.newest_id.empty()) {
      feed.newest_id = item.message_id;
    }
    feed.messages.push_back(std::move(item));
  }
  std::reverse(feed.messages.begin(), feed.messages.end());  // oldest first
  std::stable_sort(
      feed.messages.begin(), feed.messages.end(),
      [](const ArchiveMessage& a, const ArchiveMessage& b) { return a.date < b.date; });
  return feed;
}

}  // namespace kseries::watch
