#include "watch/revision_fetch.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"
#include "series/b4_fetch.h"
#include "series/revision_identity.h"
#include "series/series_chain.h"
#include "sys/files.h"
#include "watch/archive_message.h"
#include "watch/download.h"
#include "watch/header_text.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

// The messages b4 wrote for the revision (its cover letter, then its
// patches), headers only.
std::vector<ArchiveMessage> fetched_messages(const fs::path& dir) {
  std::vector<ArchiveMessage> messages;
  const std::string listing = read_file(dir / "series");
  for (const auto line : split_lines(listing)) {
    const std::string name(trim(line));
    if (!name.empty() && fs::is_regular_file(dir / name)) {
      // b4 writes its cover letter as one message, its patches as an mbox.
      const std::string text = read_file(dir / name, k_max_b4_mbox_bytes);
      if (!starts_with(text, "From ")) {
        messages.push_back(parse_archive_message(text));
        continue;
      }
      for (auto& message : parse_mbox_messages(text)) {
        messages.push_back(std::move(message));
      }
    }
  }
  return messages;
}

// Whether the inbox serves the message itself (a b4 failure is then the
// mail's, not the inbox's).
bool inbox_serves(const WatchRequest& request, ProcessRunner& runner,
                  const std::string& message_id) {
  const auto result =
      download(runner, {request.inbox_url + "/" + url_path_segment(message_id) + "/raw",
                        request.state_dir / "probe.eml", 1u << 20, std::chrono::seconds(30)});
  return result.outcome == DownloadOutcome::k_ok || result.outcome == DownloadOutcome::k_too_large;
}

void refuse(const WatchRequest& request, RevisionState& s, const std::string& why) {
  s.phase = Phase::k_refused;
  s.stamp = request.intake_stamp;
  s.note = header_text(why, 1000);  // b4's traceback on one line
}

}  // namespace

void fetch_revision(const WatchRequest& request, ProcessRunner& runner, session::Status& status,
                    RevisionState& s) {
  B4Request b4{s.message_id, request.inbox_url, s.revision, request.inputs_dir};
  B4Series fetched;
  try {
    fetched = fetch_b4_series(runner, b4);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::k_interrupted) {
      throw;
    }
    if (e.kind() != ErrorKind::k_infrastructure) {
      refuse(request, s, std::string("not taken: ") + e.what());
      return;
    }
    if (find_program("b4") && inbox_serves(request, runner, s.message_id)) {
      refuse(request, s,
             std::string("b4 could not take this thread, which the inbox serves (the mail's "
                         "failure, not the inbox's): ") +
                 e.what());
      return;
    }
    ++s.attempts;
    s.note = header_text("fetch failed (attempt " + std::to_string(s.attempts) +
                             "), will try again at the next poll: " + e.what(),
                         1000);
    status.progress("watch: " + s.message_id + ": " + s.note.substr(0, 300));
    return;
  }
  try {
    const auto messages = fetched_messages(fetched.dir);
    const bool here = std::any_of(messages.begin(), messages.end(), [&](const ArchiveMessage& m) {
      return m.message_id == s.message_id;
    });
    if (!here) {
      const std::string first = messages.empty() ? "nothing"
                                                 : "<" + messages.front().message_id + "> '" +
                                                       messages.front().subject + "'";
      s.phase = Phase::k_ignored;
      s.stamp = request.intake_stamp;
      s.note = "not a revision of its own: b4 took " + first +
               " from this message's thread, and not this message";
      return;
    }
    if (s.references.empty() && !messages.empty()) {
      s.references = messages.front().references;  // from the feed: the thread, as b4 wrote it
    }
    const auto series = load_series(fetched.dir);
    const auto identity = revision_identity(series);
    s.family = identity.family();
    s.identity = identity.label();
    s.series_dir = fetched.dir.string();
    std::string why;
    const bool matches = series_matches(request.matches, series, why);
    s.phase = matches ? Phase::k_fetched : Phase::k_ignored;
    s.stamp = matches ? "" : request.intake_stamp;
    s.note = why;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::k_interrupted || e.kind() == ErrorKind::k_infrastructure) {
      throw;
    }
    refuse(request, s, std::string("not taken: ") + e.what());
  }
}

}  // namespace kseries::watch
