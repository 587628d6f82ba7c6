#include "watch/revision_gate.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "results/outcome.h"
#include "series/series_chain.h"
#include "sys/files.h"
#include "watch/answer_mail.h"

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

// The series' arguments for commands elsewhere: this very revision.
std::vector<std::string> series_arguments(const WatchRequest& request, const RevisionState& s) {
  return {"--series", s.message_id + "#v" + std::to_string(s.revision), "--inbox",
          request.inbox_url};
}

bool gated(Phase phase) {
  return phase == Phase::k_gated || phase == Phase::k_sending || phase == Phase::k_answered;
}

bool same_poster(const RevisionState& a, const RevisionState& b) {
  return !a.author_email.empty() && to_lower(a.author_email) == to_lower(b.author_email);
}

bool in_thread(const RevisionState& s, const RevisionState& older) {
  return std::find(s.references.begin(), s.references.end(), older.message_id) !=
         s.references.end();
}

// A run as a reader can name it: its ID, under --report-url when given.
std::string run_reference(const WatchRequest& request, const std::string& run_id,
                          const std::string& below = "") {
  const std::string path = run_id + (below.empty() ? "/" : "/" + below);
  return request.report_url.empty() ? path : request.report_url + "/" + path;
}

// A file of the run, as run_reference names it; a file outside the run by
// its name alone.
std::string run_file(const WatchRequest& request, const fs::path& run_dir, const fs::path& file) {
  const auto relative = file.lexically_relative(run_dir);
  if (relative.empty() || *relative.begin() == "..") {
    return file.filename().string();
  }
  return run_reference(request, run_dir.filename().string(), relative.string());
}

// The reproduce command as a reader can run it: the local tree and
// directories of this machine become names the block explains.
std::vector<std::string> reader_command(const WatchRequest& request,
                                        const gate::GateRequest& gate) {
  std::vector<std::string> command = {"kseries", "gate", "--matrix",
                                      request.matrix_argument.find('/') == std::string::npos
                                          ? request.matrix_argument
                                          : fs::path(request.matrix_argument).filename().string()};
  for (const auto& args : gate.reproduce.series) {
    command.insert(command.end(), args.begin(), args.end() - 2);  // --inbox once, below
  }
  command.insert(command.end(), {"--inbox", request.inbox_url});
  for (std::size_t i = 0; i < gate.reproduce.base.size(); ++i) {
    const std::string& word = gate.reproduce.base[i];
    const bool local = i > 0 && gate.reproduce.base[i - 1] == "--tree";
    command.push_back(local ? "LINUX" : word);
  }
  for (std::size_t i = 0; i + 1 < gate.reproduce.directories.size(); i += 2) {
    // "--configs DIR": this machine's directory, named for the reader.
    const std::string& option = gate.reproduce.directories[i];
    command.insert(command.end(), {option, option == "--configs" ? "KERNEL_CONFIGS" : "TESTCASES"});
  }
  command.insert(command.end(), {"--accel", request.reproduce.accel, "--clock", request.clock});
  return command;
}

// The answer's facts from the gate's result for the revision NAME.
void read_result(const WatchRequest& request, const gate::GateResult& result,
                 const std::string& name, const fs::path& run_dir, AnswerFacts& facts) {
  facts.verdict = "ERROR (the gate judged nothing)";
  for (const auto& v : result.verdicts) {
    if (v.series != name) {
      continue;
    }
    facts.verdict = results::verdict_word(v.outcome);
    for (const auto& warning : v.warnings) {
      facts.verdict += ", warning: " + warning;
    }
    facts.warnings = v.warnings;
  }
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
      text += "      reproduce.sh: " + run_file(request, run_dir, it->second) + "\n";
    }
    facts.failing_cells.push_back(text);
  }
  for (const auto& comparison : result.revisions) {
    if (comparison.to == name) {
      facts.comparison = gate::render_comparison(comparison);
    }
  }
}

std::string tested_line(const WatchRequest& request, const Series& series, const git_oid& base,
                        const std::string& label, const RevisionState* previous) {
  std::string cells;
  for (const auto& cell : request.matrix.cells) {
    cells += (cells.empty() ? "" : ", ") + cell.target + " " + cell.test_case;
  }
  return std::to_string(series.patches.size()) + " patch(es) on base " + git::to_hex(base) + " (" +
         label + "); matrix " + request.matrix.name + ": " +
         (request.matrix.per_patch_target ? "per-patch " + *request.matrix.per_patch_target + ", "
                                          : std::string()) +
         cells +
         (previous ? "; reference: the previous revision, " + previous->identity + " <" +
                         previous->message_id + ">"
                   : "; no earlier revision seen");
}

}  // namespace

const RevisionState* previous_revision(const std::vector<RevisionState>& states,
                                       const RevisionState& s, std::string& why) {
  const RevisionState* best = nullptr;
  for (const auto& other : states) {
    if (!gated(other.phase) || other.family != s.family || other.revision >= s.revision ||
        !fs::is_directory(other.series_dir)) {
      continue;
    }
    if (!same_poster(other, s) && !in_thread(s, other)) {
      why += (why.empty() ? "" : "; ") + other.identity + " <" + other.message_id + "> by " +
             other.author_email +
             " has this series' identity but another author and is not in this thread: not "
             "taken as its previous revision";
      continue;
    }
    if (!best || other.revision > best->revision) {
      best = &other;
    }
  }
  return best;
}

void gate_revision(const WatchRequest& request, WatchServices& services,
                   const std::vector<RevisionState>& states, RevisionState& s) {
  std::string passed_over;
  const RevisionState* previous = previous_revision(states, s, passed_over);
  gate::GateRequest gate;
  gate.reproduce = request.reproduce;
  gate.judged_by = request.judged_by;
  if (previous) {
    gate.series.push_back(previous->series_dir);
    gate.reproduce.series.push_back(series_arguments(request, *previous));
    s.compared_with = previous->message_id;
  }
  if (!passed_over.empty()) {
    s.note = passed_over;
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
  const std::string run_id = gate.run_dir.filename().string();
  write_file(gate.run_dir / "gate.txt",
             gate::render_gate(result) + "run directory " + gate.run_dir.string() + "\n");
  s.gate_run = gate.run_dir.string();

  AnswerFacts facts;
  facts.from = request.from;
  facts.to_name = s.author_name;
  facts.to_email = s.author_email;
  facts.cc = s.list_address;
  facts.subject = s.title;
  facts.in_reply_to = s.message_id;
  facts.references = s.references;
  facts.message_id = "kseries-watch-" + s.key + "@kseries.invalid";
  facts.date = mail_date_now();
  facts.identity = s.identity;
  // The base's label names this machine's tree: the reader's is LINUX.
  std::string reader_label = label;
  for (std::size_t i = 0; i + 1 < gate.reproduce.base.size(); ++i) {
    const std::string& tree = gate.reproduce.base[i + 1];
    const auto at = reader_label.find(tree);
    if (gate.reproduce.base[i] == "--tree" && !tree.empty() && at != std::string::npos) {
      reader_label.replace(at, tree.size(), "LINUX");
    }
  }
  facts.tested = tested_line(request, *chain.back(), base, reader_label, previous);
  if (s.kind == StartKind::k_first_patch) {
    facts.tested += "; posted without a cover letter: the series its first patch starts";
  }
  read_result(request, result, chain.back()->name, gate.run_dir, facts);
  facts.reproduce.push_back(shell_line(reader_command(request, gate)));
  const bool tree = std::find(gate.reproduce.base.begin(), gate.reproduce.base.end(), "--tree") !=
                    gate.reproduce.base.end();
  if (tree) {
    facts.reproduce_notes.push_back("LINUX: a kernel tree that has commit " + git::to_hex(base));
  }
  if (!gate.reproduce.directories.empty()) {
    facts.reproduce_notes.push_back(
        "KERNEL_CONFIGS, TESTCASES: this watch's own kernel-configs and testcases directories "
        "(in its run)");
  }
  facts.run = run_reference(request, run_id);
  facts.run_is_url = !request.report_url.empty();
  s.verdict = facts.verdict;
  s.answer = compose_answer(facts);
  s.phase = Phase::k_gated;
}

}  // namespace kseries::watch
