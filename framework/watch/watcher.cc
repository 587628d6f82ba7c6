#include "watch/watcher.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "series/b4_fetch.h"
#include "series/revision_identity.h"
#include "series/series_chain.h"
#include "sys/failpoint.h"
#include "sys/files.h"
#include "watch/answer_mail.h"
#include "watch/inbox_feed.h"
#include "watch/watch_state.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& word : argv) {
    line += (line.empty() ? "" : " ") + gate::sh_quote(word);
  }
  return line;
}

Feed read_feed(const WatchRequest& request, WatchServices& services) {
  const fs::path file = request.state_dir / "new.atom";
  ProcessSpec spec;
  spec.argv = {"curl",
               "-sS",
               "-f",
               "--max-time",
               "60",
               "--max-filesize",
               std::to_string(k_max_feed_bytes),
               "-o",
               file.string(),
               request.inbox_url + "/new.atom"};
  spec.timeout = std::chrono::seconds(90);
  const auto result = services.runner.run(spec);
  if (!result.ok()) {
    throw infra_error("cannot read the inbox feed " + request.inbox_url + "/new.atom: " +
                      result.describe() + ": " + std::string(trim(result.err)).substr(0, 300));
  }
  return parse_feed(read_file(file), request.inbox_url);
}

// The series' arguments for commands elsewhere: this very revision.
std::vector<std::string> series_arguments(const WatchRequest& request, const RevisionState& s) {
  return {"--series", s.message_id + "#v" + std::to_string(s.revision), "--inbox",
          request.inbox_url};
}

// seen -> fetched | ignored: b4 writes the revision, --match decides.
void fetch(const WatchRequest& request, WatchServices& services, RevisionState& s) {
  B4Request b4{s.message_id, request.inbox_url, s.revision, request.inputs_dir};
  try {
    const auto fetched = fetch_b4_series(services.runner, b4);
    const auto series = load_series(fetched.dir);
    const auto identity = revision_identity(series);
    s.family = identity.family();
    s.identity = identity.label();
    s.series_dir = fetched.dir.string();
    std::string why;
    s.phase = series_matches(request.matches, series, why) ? Phase::k_fetched : Phase::k_ignored;
    s.note = why;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::k_interrupted) {
      throw;
    }
    if (e.kind() == ErrorKind::k_infrastructure) {
      // The inbox or b4 failed: seen still, fetched again at the next poll;
      // the other revisions go on.
      s.note = std::string("fetch failed, will try again: ") + e.what();
      services.status.progress("watch: " + s.message_id + ": " + s.note.substr(0, 300));
      return;
    }
    s.phase = Phase::k_ignored;  // not a series b4 and kseries can take: said once, not retried
    s.note = std::string("not taken: ") + e.what();
  }
}

const RevisionState* previous_revision(const std::vector<RevisionState>& states,
                                       const RevisionState& s) {
  const RevisionState* best = nullptr;
  for (const auto& other : states) {
    const bool gated = other.phase == Phase::k_gated || other.phase == Phase::k_sending ||
                       other.phase == Phase::k_answered;
    if (gated && other.family == s.family && other.revision < s.revision &&
        fs::is_directory(other.series_dir) && (!best || other.revision > best->revision)) {
      best = &other;
    }
  }
  return best;
}

// fetched -> gated: the gate of this revision beside the previous one, and
// the answer composed from it.
void gate(const WatchRequest& request, WatchServices& services,
          const std::vector<RevisionState>& states, RevisionState& s) {
  const RevisionState* previous = previous_revision(states, s);
  gate::GateRequest gate;
  gate.reproduce = request.reproduce;
  if (previous) {
    gate.series.push_back(previous->series_dir);
    gate.reproduce.series.push_back(series_arguments(request, *previous));
    s.compared_with = previous->message_id;
  }
  gate.series.push_back(s.series_dir);
  gate.reproduce.series.push_back(series_arguments(request, s));
  gate.matrix = request.matrix;
  const auto chain = load_series_chain(s.series_dir);
  const auto [base, label] = services.resolve_base(chain.back()->base_commit);
  gate.base = base;
  gate.base_label = label;
  gate.reproduce.base = services.base_arguments(base);
  gate.accel = request.accel;
  gate.clock = request.clock;
  gate.run_dir = services.new_run();
  services.status.progress("watch: gating " + s.identity + " (" + s.title + ")" +
                           (previous ? " against " + previous->identity : ""));
  const auto result = gate::run_gate(gate, services.gate, services.status);
  if (result.interrupted) {
    // Not judged: the revision stays fetched and is gated again next time.
    throw Error(ErrorKind::k_interrupted, result.interruption);
  }
  const std::string text =
      gate::render_gate(result) + "run directory " + gate.run_dir.string() + "\n";
  write_file(gate.run_dir / "gate.txt", text);
  s.gate_run = gate.run_dir.string();

  const std::string name = chain.back()->name;
  AnswerFacts facts;
  facts.from = request.from;
  facts.to_name = s.author_name;
  facts.to_email = s.author_email;
  facts.cc = s.list_address;
  facts.subject = s.title;
  facts.in_reply_to = s.message_id;
  facts.message_id = "kseries-watch-" + s.key + "@kseries.invalid";
  facts.date = mail_date_now();
  facts.identity = s.identity;
  std::string cells;
  for (const auto& cell : request.matrix.cells) {
    cells += (cells.empty() ? "" : ", ") + cell.target + " " + cell.test_case;
  }
  facts.tested =
      std::to_string(chain.back()->patches.size()) + " patch(es) on base " + git::to_hex(base) +
      " (" + label + "); matrix " + request.matrix.name + ": " +
      (request.matrix.per_patch_target ? "per-patch " + *request.matrix.per_patch_target + ", "
                                       : std::string()) +
      cells +
      (previous ? "; reference: the previous revision, " + previous->identity + " <" +
                      previous->message_id + ">"
                : "; no earlier revision seen");
  std::string verdict = "ERROR (the gate judged nothing)";
  for (const auto& v : result.verdicts) {
    if (v.series != name) {
      continue;
    }
    verdict = results::verdict_word(v.outcome);
    for (const auto& warning : v.warnings) {
      verdict += ", warning: " + warning;
    }
    facts.warnings = v.warnings;
  }
  facts.verdict = verdict;
  s.verdict = verdict;
  for (const auto& cell : result.cells) {
    if (cell.series != name ||
        (cell.status != results::Outcome::k_fail && cell.status != results::Outcome::k_error)) {
      continue;
    }
    std::string text = "  " + results::outcome_name(cell.status) + " " + cell.cell + ": " +
                       cell.summary.substr(0, 300) + "\n";
    int lines = 0;
    for (const auto line : split_lines(cell.detail)) {
      if (!trim(line).empty() && ++lines <= 6) {
        text += "      " + std::string(line.substr(0, 200)) + "\n";
      }
    }
    if (const auto it = cell.properties.find("reproduce"); it != cell.properties.end()) {
      text += "      reproduce: sh " + it->second + "\n";
    }
    facts.failing_cells.push_back(text);
  }
  for (const auto& comparison : result.revisions) {
    if (comparison.to == name) {
      facts.comparison = gate::render_comparison(comparison);
    }
  }
  std::vector<std::string> command = {"kseries", "gate", "--matrix", request.matrix_argument};
  for (const auto& args : gate.reproduce.series) {
    command.insert(command.end(), args.begin(), args.end() - 2);  // --inbox once, below
  }
  command.insert(command.end(), {"--inbox", request.inbox_url});
  command.insert(command.end(), gate.reproduce.base.begin(), gate.reproduce.base.end());
  command.insert(command.end(), gate.reproduce.directories.begin(),
                 gate.reproduce.directories.end());
  command.insert(command.end(), {"--accel", request.reproduce.accel, "--clock", request.clock});
  facts.reproduce.push_back(shell_line(command));
  facts.run_dir = gate.run_dir.string();
  s.answer = compose_answer(facts);
  s.phase = Phase::k_gated;
}

// gated -> sending -> answered: the outbox file once, then --sendmail once.
bool answer(const WatchRequest& request, WatchServices& services, RevisionState& s,
            const WatchState& state) {
  const fs::path mail = request.outbox / (s.key + ".eml");
  bool wrote = false;
  if (s.phase == Phase::k_gated) {
    if (!fs::exists(mail)) {
      const fs::path partial = request.outbox / ("." + s.key + ".eml.partial");
      write_file(partial, s.answer);
      fs::rename(partial, mail);
      wrote = true;
    }
    failpoint("watch-answered");
    if (request.sendmail.empty()) {
      s.phase = Phase::k_answered;
      state.save(s);
      return wrote;
    }
    s.phase = Phase::k_sending;
    state.save(s);
    ProcessSpec spec;
    spec.argv = request.sendmail;
    spec.stdin_file = mail;
    spec.timeout = std::chrono::minutes(2);
    const auto result = services.runner.run(spec);
    if (!result.ok()) {
      // The command did not take it: the next poll tries again.
      s.phase = Phase::k_gated;
      s.note =
          "--sendmail " + result.describe() + ": " + std::string(trim(result.err)).substr(0, 200);
      state.save(s);
      return wrote;
    }
    s.phase = Phase::k_answered;
    state.save(s);
    return true;
  }
  if (s.phase == Phase::k_sending) {
    // Killed while --sendmail ran: it may have sent it. At most once.
    s.phase = Phase::k_answered;
    s.note =
        "--sendmail was running when kseries stopped: not sent again (see " + mail.string() + ")";
    state.save(s);
  }
  return false;
}

}  // namespace

PollSummary poll_once(const WatchRequest& request, WatchServices& services) {
  fs::create_directories(request.outbox);
  const WatchState state(request.state_dir);
  PollSummary summary;
  // Seen: every new revision is on disk before any is worked on.
  const Feed feed = read_feed(request, services);
  for (const auto& entry : feed.revisions) {
    if (state.find(entry.message_id)) {
      continue;
    }
    RevisionState s;
    s.key = WatchState::key_of(entry.message_id);
    s.message_id = entry.message_id;
    s.title = entry.title;
    s.author_name = entry.author_name;
    s.author_email = entry.author_email;
    s.list_address = feed.list_address;
    s.updated = entry.updated;
    s.revision = entry.revision;
    s.total = entry.total;
    if (!title_may_match(request.matches, entry.title)) {
      s.phase = Phase::k_ignored;
      s.note = "the subject matches no --match";
    }
    state.save(s);
    ++summary.new_revisions;
  }
  failpoint("watch-seen");
  // Fetch every revision first, so each knows its series before any gate
  // looks for a previous revision.
  auto states = state.load();
  for (auto& s : states) {
    if (s.phase == Phase::k_seen) {
      fetch(request, services, s);
      state.save(s);
    }
  }
  states = state.load();
  std::stable_sort(
      states.begin(), states.end(), [](const RevisionState& a, const RevisionState& b) {
        return a.revision < b.revision;  // an older revision is gated (and referenced) first
      });
  for (auto& s : states) {
    if (s.phase == Phase::k_ignored || s.phase == Phase::k_answered) {
      continue;
    }
    if (s.phase == Phase::k_fetched) {
      gate(request, services, states, s);
      state.save(s);
      failpoint("watch-gated");
    }
    if (answer(request, services, s, state)) {
      ++summary.answered;
    }
    summary.lines.push_back(s.identity + " <" + s.message_id + ">: " + s.verdict + " -> " +
                            (request.outbox / (s.key + ".eml")).string());
  }
  return summary;
}

}  // namespace kseries::watch
