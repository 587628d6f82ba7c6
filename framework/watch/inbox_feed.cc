#include "watch/inbox_feed.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/text.h"
#include "core/utf8.h"
#include "series/subject.h"

namespace kseries::watch {

namespace {

// One line, printable, bounded: what a header or a report may hold.
std::string clean(std::string_view text, std::size_t max = 998) {
  return std::string(trim(one_line(text, max)));
}

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
    if (text[i] == '%' && i + 2 < text.size() + 0 && hex_value(text[i + 1]) >= 0 &&
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
  const bool sane = !id.empty() && id.size() <= 250 && id.find('@') != std::string::npos &&
                    std::none_of(id.begin(), id.end(), [](char c) {
                      const auto u = static_cast<unsigned char>(c);
                      return u <= 0x20 || u == 0x7f || c == '<' || c == '>' || c == '/';
                    });
  return sane ? id : "";
}

bool is_reply(std::string_view title) {
  const std::string lower = to_lower(trim(title).substr(0, 4));
  return starts_with(lower, "re:") || starts_with(lower, "aw:") || starts_with(lower, "fwd:");
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
    feed.list_address = clean(id.substr(7), 254);
  }
  std::size_t count = 0;
  for (const auto entry : feed_node.children("entry")) {
    if (++count > k_max_feed_entries) {
      break;
    }
    FeedEntry item;
    item.title = clean(entry.child_value("title"));
    item.author_name = clean(entry.child("author").child_value("name"), 200);
    item.author_email = clean(entry.child("author").child_value("email"), 254);
    item.updated = clean(entry.child_value("updated"), 64);
    item.message_id = message_id_of(entry.child("link").attribute("href").value(), inbox_url);
    if (item.message_id.empty() || is_reply(item.title)) {
      ++feed.skipped;
      continue;
    }
    Subject subject;
    try {
      subject = parse_subject(item.title, "inbox feed");
    } catch (const Error&) {
      ++feed.skipped;  // a prefix out of range: not a series we can take
      continue;
    }
    if (subject.numbered && !subject.is_cover()) {
      ++feed.skipped;  // a patch of a series: its cover letter stands for it
      continue;
    }
    if (!subject.numbered && item.title.find("PATCH") == std::string::npos) {
      ++feed.skipped;  // not a patch at all
      continue;
    }
    item.revision = subject.revision;
    item.total = subject.numbered ? subject.total : 1;
    feed.revisions.push_back(std::move(item));
  }
  std::reverse(feed.revisions.begin(), feed.revisions.end());  // oldest first
  std::stable_sort(
      feed.revisions.begin(), feed.revisions.end(), [](const FeedEntry& a, const FeedEntry& b) {
        return a.updated != b.updated ? a.updated < b.updated : a.revision < b.revision;
      });
  return feed;
}

}  // namespace kseries::watch
