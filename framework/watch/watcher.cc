#include "watch/watcher.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/error.h"
#include "core/text.h"
#include "sys/failpoint.h"
#include "watch/header_text.h"
#include "watch/intake.h"
#include "watch/outbox.h"
#include "watch/revision_fetch.h"
#include "watch/revision_gate.h"
#include "watch/watch_state.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

using Verdict = IntakeDecision::Verdict;

KnownLookup known_in(const WatchState& state,
                     const std::map<std::string, KnownRevision>* batch = nullptr) {
  return [&state, batch](const std::string& id) -> std::optional<KnownRevision> {
    if (const RevisionState* s = state.find(id)) {
      return KnownRevision{s->kind, s->revision, s->total};
    }
    if (batch) {
      if (const auto it = batch->find(id); it != batch->end()) {
        return it->second;
      }
    }
    return std::nullopt;
  };
}

// The message a recorded revision came from, as intake read it.
ArchiveMessage message_of(const RevisionState& s) {
  ArchiveMessage m;
  m.message_id = s.message_id;
  m.subject = s.title;
  m.author_name = s.author_name;
  m.author_email = s.author_email;
  m.date = s.updated;
  m.in_reply_to = s.in_reply_to;
  m.references = s.references;
  return m;
}

// Seen, or ignored with the reason and the stamp it was judged under.
void judge_intake(const WatchRequest& request, const IntakeDecision& d, RevisionState& s) {
  s.stamp.clear();
  s.note = d.why;
  s.phase = Phase::k_seen;
  if (d.verdict == Verdict::k_not_taken) {
    s.phase = Phase::k_ignored;
  } else if (!title_may_match(request.matches, s.title)) {
    s.phase = Phase::k_ignored;
    s.note = "the subject matches no --match";
  }
  if (s.phase == Phase::k_ignored) {
    s.stamp = request.intake_stamp;
  }
}

// Ignored and refused revisions judged under another kseries or --match
// are judged again.
void retake_stale(const WatchRequest& request, WatchState& state, PollSummary& summary) {
  std::size_t retaken = 0;
  for (auto s : state.all()) {
    if ((s.phase != Phase::k_ignored && s.phase != Phase::k_refused) ||
        s.stamp == request.intake_stamp) {
      continue;
    }
    const std::string was = s.note;
    if (s.phase == Phase::k_refused) {
      s.phase = Phase::k_seen;
      s.stamp.clear();
    } else {
      const auto d = classify_message(message_of(s), known_in(state));
      if (d.verdict == Verdict::k_skip) {
        s.stamp = request.intake_stamp;
        s.note = "not a revision: " + d.why;
      } else {
        judge_intake(request, d, s);
      }
    }
    s.attempts = 0;
    if (s.phase == Phase::k_seen) {
      s.note = "taken again: kseries or its --match changed since it was judged (" +
               was.substr(0, 300) + ")";
      ++retaken;
    }
    state.save(s);
  }
  if (retaken > 0) {
    summary.notes.push_back(std::to_string(retaken) +
                            " revision(s) ignored or refused before are taken again (kseries or "
                            "its --match changed)");
  }
}

// Every revision the messages start is recorded (seen or ignored) before
// any is worked on.
void record_messages(const WatchRequest& request, WatchState& state, const InboxRead& read,
                     PollSummary& summary) {
  // Cover letters of this batch first: a patch 1/N under a cover letter
  // the archive took after it is no series of its own.
  std::map<std::string, KnownRevision> batch;
  const auto none = [](const std::string&) -> std::optional<KnownRevision> { return std::nullopt; };
  for (const auto& found : read.messages) {
    const auto d = classify_message(found.message, none);
    if (d.verdict == Verdict::k_revision && d.kind == StartKind::k_cover) {
      batch[found.message.message_id] = {d.kind, d.subject.revision, d.subject.total};
    }
  }
  std::map<std::string, std::size_t> skipped;
  const KnownLookup known = known_in(state, &batch);
  for (const auto& found : read.messages) {
    const ArchiveMessage& m = found.message;
    const auto d = classify_message(m, known);
    if (d.verdict == Verdict::k_skip) {
      ++skipped[d.category];
      continue;
    }
    if (state.find(m.message_id)) {
      continue;  // read before (a restart after a kill, the feed's window)
    }
    RevisionState s;
    s.key = WatchState::key_of(m.message_id);
    s.message_id = m.message_id;
    s.title = m.subject;
    s.author_name = m.author_name;
    s.author_email = m.author_email;
    s.list_address = read.list_address;
    s.updated = m.date;
    s.revision = d.subject.revision;
    s.total = d.subject.numbered ? d.subject.total : 1;
    s.kind = d.kind;
    s.in_reply_to = m.in_reply_to;
    s.references = m.references;
    s.found_in = found.found_in;
    judge_intake(request, d, s);
    state.save(s);
    ++summary.new_revisions;
  }
  summary.messages = read.messages.size();
  for (const auto& [category, count] : skipped) {
    summary.skipped +=
        (summary.skipped.empty() ? "" : ", ") + std::to_string(count) + " " + category;
  }
}

bool finished(Phase phase) {
  return phase == Phase::k_answered || phase == Phase::k_ignored || phase == Phase::k_refused;
}

std::string name_of(const RevisionState& s) {
  return (s.identity.empty() ? "'" + s.title.substr(0, 80) + "'" : s.identity) + " <" +
         s.message_id + ">";
}

// fetched -> gated; a failure stays with the revision (tried again, or
// refused), the other revisions go on.
bool gate_one(const WatchRequest& request, WatchServices& services,
              const std::vector<RevisionState>& states, WatchState& state, RevisionState& s) {
  try {
    gate_revision(request, services, states, s);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::k_interrupted) {
      throw;
    }
    if (e.kind() == ErrorKind::k_infrastructure) {
      ++s.attempts;
      s.note = header_text("gate failed (attempt " + std::to_string(s.attempts) +
                               "), will try again at the next poll: " + e.what(),
                           1000);
    } else {
      s.phase = Phase::k_refused;
      s.stamp = request.intake_stamp;
      s.note = header_text(std::string("not gated: ") + e.what(), 1000);
    }
    state.save(s);
    return false;
  }
  state.save(s);
  failpoint("watch-gated");
  return true;
}

}  // namespace

PollSummary poll_once(const WatchRequest& request, WatchServices& services) {
  fs::create_directories(request.outbox);
  WatchState state(request.state_dir);
  PollSummary summary;
  retake_stale(request, state, summary);
  // Seen: every new revision is on disk before any is worked on, and the
  // cursor moves only after them.
  const ReadRequest read_request{request.inbox_url, request.source, request.since,
                                 request.max_fetch_bytes, request.state_dir};
  const InboxRead read = read_inbox(services.runner, read_request, state.cursor());
  summary.source = read.source;
  summary.notes.insert(summary.notes.end(), read.notes.begin(), read.notes.end());
  record_messages(request, state, read, summary);
  failpoint("watch-recorded");  // recorded, the cursor not yet moved
  state.save_cursor(read.next);
  failpoint("watch-seen");
  // Fetch every revision first, so each knows its series before any gate
  // looks for a previous revision.
  std::set<std::string> fetched_now;
  for (auto s : state.all()) {
    if (s.phase == Phase::k_seen) {
      fetch_revision(request, services.runner, services.status, s);
      state.save(s);
      fetched_now.insert(s.message_id);
    }
  }
  auto states = state.all();
  std::stable_sort(
      states.begin(), states.end(), [](const RevisionState& a, const RevisionState& b) {
        return a.revision < b.revision;  // an older revision is gated (and referenced) first
      });
  for (auto& s : states) {
    if (finished(s.phase) || s.phase == Phase::k_seen) {
      continue;
    }
    if (request.mode == GateMode::k_dry_run) {
      if (s.phase == Phase::k_fetched && fetched_now.count(s.message_id)) {
        summary.lines.push_back(name_of(s) + ": fetched (--dry-run: not gated)");
      }
      continue;
    }
    if (s.phase == Phase::k_fetched && !gate_one(request, services, states, state, s)) {
      continue;
    }
    if (send_answer(request, services, state, s)) {
      ++summary.answered;
    }
    summary.lines.push_back(name_of(s) + ": " + s.verdict + " -> " +
                            (request.outbox / (s.key + ".eml")).string());
  }
  summary.pending = pending_lines(request.state_dir);
  return summary;
}

std::vector<std::string> pending_lines(const fs::path& state_dir) {
  std::vector<std::string> lines;
  if (!fs::is_directory(state_dir)) {
    return lines;
  }
  const WatchState state(state_dir);
  for (const auto& s : state.all()) {
    if (s.phase == Phase::k_answered || s.phase == Phase::k_ignored) {
      continue;
    }
    std::string why = s.note;
    if (s.phase == Phase::k_refused) {
      why += " (taken again when kseries or its --match changes)";
    } else if (s.phase == Phase::k_fetched && why.empty()) {
      why = "to be gated";
    } else if (s.phase == Phase::k_gated) {
      why = "to be answered" + (why.empty() ? "" : ": " + why);
    }
    lines.push_back(phase_name(s.phase) + " " + name_of(s) + (why.empty() ? "" : ": " + why));
  }
  return lines;
}

}  // namespace kseries::watch
