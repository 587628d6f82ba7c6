#include "watch/inbox_reader.h"

#include <algorithm>
#include <ctime>

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"
#include "sys/utc_time.h"
#include "watch/download.h"
#include "watch/header_text.h"
#include "watch/inbox_archive.h"
#include "watch/inbox_feed.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

std::string iso_time(std::int64_t seconds) { return utc_time_at(seconds, "%Y-%m-%dT%H:%M:%SZ"); }

bool all_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string fetched_text(ProcessRunner& runner, const std::string& url, const fs::path& file,
                         std::uintmax_t max_bytes, DownloadOutcome& outcome, std::string& why) {
  const auto result = download(runner, {url, file, max_bytes, std::chrono::seconds(60)});
  outcome = result.outcome;
  why = result.why;
  return result.outcome == DownloadOutcome::k_ok ? read_file(file, max_bytes) : "";
}

// The list's address from the inbox's own config snippet (public-inbox
// serves it at <inbox>/_/text/config/raw): its "address = X" line.
std::string list_address_of(ProcessRunner& runner, const ReadRequest& request) {
  DownloadOutcome outcome;
  std::string why;
  const std::string text = fetched_text(runner, request.inbox_url + "/_/text/config/raw",
                                        request.state_dir / "config.raw", 64 * 1024, outcome, why);
  for (const auto line : split_lines(text)) {
    const std::string_view t = trim(line);
    if (starts_with(t, "address") && t.find('=') != std::string_view::npos) {
      const std::string address = header_text(t.substr(t.find('=') + 1), 254);
      if (address.find('@') != std::string::npos && address.find(' ') == std::string::npos) {
        return address;
      }
    }
  }
  return "";
}

struct ArchiveReader {
  ProcessRunner& runner;
  const ReadRequest& request;
  const ArchiveCursor& cursor;
  InboxRead& read;

  EpochMirror mirror(const Epoch& epoch) const {
    fs::create_directories(request.state_dir / "epochs");
    return EpochMirror(request.state_dir / "epochs" / (std::to_string(epoch.number) + ".git"));
  }

  // Reads EPOCH from FROM (""; its start) to TIP, and moves its cursor there.
  void take(const Epoch& epoch, const EpochMirror& m, const std::string& from,
            std::int64_t after_time, const std::string& tip) {
    if (!tip.empty() && tip != from) {
      m.walk(from, after_time, tip, [&](const EpochMessage& found) {
        read.messages.push_back({found.message, "epoch " + std::to_string(epoch.number) +
                                                    " commit " + found.commit.substr(0, 12)});
      });
    }
    EpochCursor& next = read.next.epochs[epoch.number];
    next.url = epoch.url;
    next.commit = tip;
    next.time = tip.empty() ? 0 : m.commit_time(tip);
    next.fingerprint = epoch.fingerprint;
  }

  std::string fetch(const Epoch& epoch, const EpochMirror& m) {
    return m.fetch(runner, epoch.url, request.max_fetch_bytes);
  }

  // The first poll of a watch: where it starts.
  void start(const std::vector<Epoch>& epochs) {
    const Epoch& newest = epochs.back();
    if (request.since && !request.since->commit.empty()) {
      const std::string& commit = request.since->commit;
      std::vector<std::pair<const Epoch*, std::string>> newer;  // fetched, newest first
      for (auto it = epochs.rbegin(); it != epochs.rend(); ++it) {
        const auto m = mirror(*it);
        const std::string tip = fetch(*it, m);
        if (m.has_commit(commit)) {
          take(*it, m, commit, 0, tip);
          for (auto n = newer.rbegin(); n != newer.rend(); ++n) {
            take(*n->first, mirror(*n->first), "", 0, n->second);
          }
          read.notes.push_back("starting after commit " + commit.substr(0, 12) + " of epoch " +
                               std::to_string(it->number) + " (--since)");
          return;
        }
        newer.emplace_back(&*it, tip);
      }
      throw usage_error("--since " + commit + ": no epoch of " + request.inbox_url +
                        " has this commit");
    }
    if (request.since) {
      const std::int64_t since = request.since->time;
      bool any = false;
      for (const auto& epoch : epochs) {
        if (epoch.modified != 0 && epoch.modified < since && &epoch != &newest) {
          continue;  // all of it older than --since
        }
        const auto m = mirror(epoch);
        const std::string tip = fetch(epoch, m);
        const std::string before = tip.empty() ? "" : m.last_before(tip, since);
        take(epoch, m, before, 0, tip);
        any = true;
      }
      read.notes.push_back("reading the messages the archive took from " + iso_time(since) +
                           " on (--since " + request.since->text + ")" + (any ? "" : ": none"));
      return;
    }
    const auto m = mirror(newest);
    const std::string tip = fetch(newest, m);
    take(newest, m, tip, 0, tip);
    read.notes.push_back(
        "starting at the archive's newest message (epoch " + std::to_string(newest.number) +
        (tip.empty() ? ", empty"
                     : ", commit " + tip.substr(0, 12) + " of " + iso_time(m.commit_time(tip))) +
        "): what arrives from now on is read; --since DATE|COMMIT reads older messages");
  }

  void run(const std::vector<Epoch>& epochs) {
    if (cursor.epochs.empty()) {
      start(epochs);
      return;
    }
    if (request.since) {
      read.notes.push_back("--since " + request.since->text +
                           " is not used: this watch has read the archive before and goes on "
                           "from where it stopped");
    }
    const int highest_known = cursor.epochs.rbegin()->first;
    for (const auto& epoch : epochs) {
      const auto known = cursor.epochs.find(epoch.number);
      if (known == cursor.epochs.end()) {
        if (epoch.number < highest_known) {
          continue;  // older than where the watch started
        }
        const auto m = mirror(epoch);  // a new epoch: all of it
        take(epoch, m, "", 0, fetch(epoch, m));
        continue;
      }
      const EpochCursor& at = known->second;
      if (!at.commit.empty() && !epoch.fingerprint.empty() && epoch.fingerprint == at.fingerprint) {
        continue;  // unchanged since it was read: no fetch
      }
      const auto m = mirror(epoch);
      const std::string tip = fetch(epoch, m);
      if (!at.commit.empty() && !m.has_commit(at.commit)) {
        read.notes.push_back("warning: epoch " + std::to_string(epoch.number) +
                             " no longer has commit " + at.commit.substr(0, 12) +
                             " (its history was rewritten): reading what it took after " +
                             iso_time(at.time));
      }
      take(epoch, m, at.commit, at.time, tip);
    }
  }
};

void read_feed(ProcessRunner& runner, const ReadRequest& request, const ArchiveCursor& cursor,
               InboxRead& read) {
  DownloadOutcome outcome;
  std::string why;
  const std::string url = request.inbox_url + "/new.atom";
  const std::string text =
      fetched_text(runner, url, request.state_dir / "new.atom", k_max_feed_bytes, outcome, why);
  if (outcome != DownloadOutcome::k_ok) {
    throw infra_error("cannot read the inbox feed: " + why);
  }
  const Feed feed = parse_feed(text, request.inbox_url);
  read.list_address = feed.list_address;
  for (const auto& message : feed.messages) {
    read.messages.push_back({message, "feed"});
  }
  read.source = "feed " + url;
  const std::string window = std::to_string(feed.entries) + " entries" +
                             (feed.oldest.empty() ? "" : ", the oldest of " + feed.oldest);
  // The feed is the newest messages, newest first, without a gap: when the
  // newest one of the last read is still in it, nothing between was lost.
  const bool overlaps =
      std::any_of(feed.messages.begin(), feed.messages.end(),
                  [&](const ArchiveMessage& m) { return m.message_id == cursor.feed_newest_id; });
  if (!cursor.feed_read) {
    read.notes.push_back("note: the feed holds only the inbox's newest messages (" + window +
                         "): nothing older is read");
  } else if (!cursor.feed_newest_id.empty() && !overlaps) {
    read.notes.push_back("warning: the feed's window (" + window +
                         ") no longer holds the newest message of the last poll (<" +
                         cursor.feed_newest_id + ">, " + cursor.feed_newest +
                         "): messages in between may have been missed (poll more often, or "
                         "watch an inbox that offers its git epochs)");
  }
  if (!feed.newest_id.empty()) {
    read.next.feed_newest_id = feed.newest_id;
  }
  read.next.feed_read = true;
  read.next.feed_newest = std::max(cursor.feed_newest, feed.newest);
}

}  // namespace

InboxSource parse_inbox_source(const std::string& text) {
  if (text == "auto") {
    return InboxSource::k_auto;
  }
  if (text == "archive") {
    return InboxSource::k_archive;
  }
  if (text == "feed") {
    return InboxSource::k_feed;
  }
  throw usage_error("--source '" + text + "': auto, archive or feed");
}

Since parse_since(const std::string& text) {
  Since since;
  since.text = text;
  if (text.size() == 40 && all_hex(text)) {
    since.commit = text;
    return since;
  }
  std::tm tm{};
  const char* end = strptime(text.c_str(), "%Y-%m-%d", &tm);
  if (end && *end == 'T') {
    end = strptime(end, "T%H:%M:%S", &tm);
    end = end && *end == 'Z' ? end + 1 : nullptr;
  }
  if (!end || *end != '\0' || text.size() < 10) {
    throw usage_error("--since '" + text +
                      "': a date (2026-05-01 or 2026-05-01T12:00:00Z, UTC) or a full commit "
                      "id of an epoch");
  }
  since.time = timegm(&tm);
  return since;
}

InboxRead read_inbox(ProcessRunner& runner, const ReadRequest& request,
                     const ArchiveCursor& cursor) {
  InboxRead read;
  read.next = cursor;
  fs::create_directories(request.state_dir);
  if (request.source != InboxSource::k_feed) {
    DownloadOutcome outcome;
    std::string why;
    const std::string text =
        fetched_text(runner, request.inbox_url + "/manifest.js.gz",
                     request.state_dir / "manifest.js.gz", k_max_manifest_bytes, outcome, why);
    std::vector<Epoch> epochs;
    if (outcome == DownloadOutcome::k_ok) {
      epochs = parse_manifest(gunzip(text, k_max_manifest_json_bytes), request.inbox_url);
      why = "its manifest lists no git epoch";
    } else if (outcome != DownloadOutcome::k_not_found) {
      throw infra_error("cannot read the inbox: " + why);
    }
    if (!epochs.empty()) {
      ArchiveReader{runner, request, cursor, read}.run(epochs);
      read.list_address =
          cursor.list_address.empty() ? list_address_of(runner, request) : cursor.list_address;
      read.next.list_address = read.list_address;
      read.source = "archive " + request.inbox_url + ", epochs " +
                    std::to_string(epochs.front().number) + ".." +
                    std::to_string(epochs.back().number);
      return read;
    }
    if (request.source == InboxSource::k_archive) {
      throw usage_error("--source archive: " + request.inbox_url + " offers no git epochs (" + why +
                        ")");
    }
    read.notes.push_back("warning: " + request.inbox_url + " offers no git epochs (" + why +
                         "): reading its Atom feed, which holds only its newest messages");
  }
  read_feed(runner, request, cursor, read);
  return read;
}

}  // namespace kseries::watch
