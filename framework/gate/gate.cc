#include "gate/gate.h"
#include "core/elapsed.h"
#include "gate/per_patch_timing.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "cases/case_def.h"
#include "core/error.h"
#include "core/text.h"
#include "gate/checkpatch.h"
#include "gate/checkpatch_findings.h"
#include "gate/coverage_stage.h"
#include "gate/expectations.h"
#include "gate/per_patch.h"
#include "gate/reproducer.h"
#include "gate/revision_regression.h"
#include "gate/series_name.h"
#include "gate/session_cells.h"
#include "git/apply.h"
#include "kernel/target.h"
#include "oracle/sha256.h"
#include "report/run_record.h"
#include "results/facts.h"
#include "series/revision_identity.h"
#include "series/series_chain.h"
#include "session/kernel_plan.h"
#include "session/session_runner.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

using Clock = SteadyClock;

// Every file below DIR (sorted, by path relative to it) and its bytes: a
// case's guest script, modules and config are part of its cell's work.
void add_tree(std::string& text, const fs::path& dir) {
  if (!fs::is_directory(dir)) {
    return;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    text += "file " + fs::relative(file, dir).string() + "\n" +
            oracle::sha256_hex(read_file(file)) + "\n";
  }
}

// One series through the stages; cells go to the store as they finish.
class SeriesGate {
 public:
  SeriesGate(const GateRequest& request, GateServices& services, results::CellStore& store,
             session::Status& status, std::map<std::string, double>& time,
             std::vector<GatedRevision>& revisions)
      : m_request(request),
        m_services(services),
        m_store(store),
        m_status(status),
        m_time(time),
        m_revisions(revisions) {}

  void run(const fs::path& dir) {
    const auto start = Clock::now();
    m_index =
        static_cast<std::size_t>(std::find(m_request.series.begin(), m_request.series.end(), dir) -
                                 m_request.series.begin());
    std::vector<std::unique_ptr<Series>> chain;
    try {
      chain = load_series_chain(dir);
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::k_interrupted) {
        throw;  // cut while reading it (a FIFO): the gate stops, as between series
      }
      // Named as a loaded series would be: a stable test identity, the path
      // (which differs on every CI runner) only as a property.
      m_name = unloaded_series_name(dir);
      record({m_name,
              results::CellId::apply().to_string(),
              results::Outcome::k_error,
              e.what(),
              e.what(),
              0,
              {{"series_dir", dir.string()}}});
      return;
    }
    m_name = chain.back()->name;
    m_identity = revision_identity(*chain.back()).label();
    m_revisions.push_back(gated_revision(*chain.back()));
    describe(*chain.back());
    const auto applied = apply(chain, start);
    m_time[gate_time_stage(results::CellId::apply())] += seconds_since(start);
    if (!applied) {
      return;
    }
    checkpatch(*chain.back(), *applied->tip);
    per_patch(*chain.back(), *applied);
    for (const auto& cell : m_request.matrix.cells) {
      run_cell(cell, *applied->tip);
    }
    coverage(*chain.back(), *applied->tip);
    per_patch_timing(*chain.back(), *applied);
  }

  const std::string& name() const { return m_name; }
  const std::string& identity() const { return m_identity; }
  bool interrupted_in_a_cell() const { return m_interrupted_in_a_cell; }

 private:
  // What a cell's verdict depends on, as one hash: the tip commit (the
  // series' patches and the base they apply onto), the target file and its
  // fragments (the toolchain is the target's `compiler:`), the case's files,
  // the cell's options, accel and clock (and under the memory clock every
  // figure of its profile). --resume reused cells by series
  // and cell name: after the patches changed to a build break, the resumed
  // gate still said PASS.
  std::string work_key(const std::string& cell, const git_oid& tip,
                       const std::optional<std::string>& target,
                       const std::optional<std::string>& test_case,
                       const std::string& options) const {
    std::string text = "cell " + cell + "\ntip " + git::to_hex(tip) + "\nbase " +
                       git::to_hex(m_request.base) + "\noptions " + options + "\naccel " +
                       std::to_string(static_cast<int>(m_request.accel)) + "\nclock " +
                       m_request.clock + "\n";
    if (m_request.clock == "memory") {
      // The profile's figures decide a memory-clock timing verdict.
      text += "memory " + memcost::settings_key(m_request.memory) + "\n";
    }
    if (target) {
      const auto loaded = kernel::load_target(m_request.configs, *target);
      text += "target " + oracle::sha256_hex(read_file(loaded.file)) + "\n";
      for (const auto& fragment : loaded.fragments) {
        text += "fragment " + fragment.filename().string() + " " +
                oracle::sha256_hex(read_file(fragment)) + "\n";
      }
    }
    if (test_case) {
      add_tree(text, m_request.testcases / *test_case);
      add_tree(text, m_request.testcases / "lib");
    }
    return oracle::sha256_hex(text);
  }

  // A cell finished before (--resume) is taken as it was, when it was the
  // same work (work_key); else it runs again.
  bool reuse(const std::string& cell, const std::string& work) {
    m_work[cell] = work;
    if (m_request.share && !m_request.share->contains(cell)) {
      return true;  // another shard's cell: it runs there
    }
    const results::CellResult* before = m_store.previous(m_name, cell);
    if (before) {
      const auto it = before->properties.find("work");
      if (it == before->properties.end() || it->second != work) {
        m_status.progress("gate " + m_name + ": " + cell +
                          ": not reused from the resumed run (its patches, base, target, "
                          "toolchain or testcase changed)");
        before = nullptr;
      }
    }
    if (before) {
      m_status.progress("gate " + m_name + ": " + cell + ": " +
                        results::outcome_name(before->status) + " (reused from the resumed run)");
      m_store.record(*before);
      m_store.count_reused();
      return true;
    }
    return false;
  }

  // The series' own patches for the reports: each file and its sha256. The
  // messages of an mbox (or of anything that is not a regular file in a
  // series directory: a FIFO reads once) are written out one per file (the
  // form KCIDB's patchset takes), as checkpatch reads them; nothing is read
  // from the source a second time.
  void describe(const Series& series) {
    results::SeriesRecord record{m_name, series.source.string(), {}, std::nullopt};
    const bool directory = fs::is_directory(series.source);
    for (std::size_t i = 0; i < series.patches.size(); ++i) {
      const auto& patch = series.patches[i];
      fs::path file = patch.file;
      std::string text;
      if (directory && fs::is_regular_file(file)) {
        text = read_file(file);
      } else {
        file =
            m_request.run_dir / "patches" / file_safe(m_name) / (std::to_string(i + 1) + ".patch");
        fs::create_directories(file.parent_path());
        text = "From: " + patch.author.name + " <" + patch.author.email + ">\nSubject: [PATCH " +
               std::to_string(i + 1) + "/" + std::to_string(series.patches.size()) + "] " +
               patch.subject.title + "\n\n" + patch.body + "\n---\n" + patch.diff;
        write_file(file, text);
      }
      record.patches.push_back({file.string(), patch.subject.title, oracle::sha256_hex(text)});
    }
    m_store.describe(std::move(record));
  }

  void record(results::CellResult cell) {
    if (m_request.share && !m_request.share->contains(cell.cell)) {
      return;  // apply runs everywhere (the tip is needed), recorded by one shard
    }
    if (const auto it = m_work.find(cell.cell); it != m_work.end()) {
      cell.properties["work"] = it->second;
    }
    m_status.progress("gate " + cell.series + ": " + cell.cell + ": " +
                      results::outcome_name(cell.status) +
                      (cell.summary.empty() ? "" : ": " + cell.summary.substr(0, 200)));
    if (cell.status == results::Outcome::k_fail || cell.status == results::Outcome::k_error) {
      reproducer(cell);
    }
    m_store.record(std::move(cell));
  }

  // A failing or erring cell's directory gets reproduce.sh (gate/reproducer.h).
  void reproducer(results::CellResult& cell) {
    if (m_request.reproduce.series.empty() || cell.properties.count("reproduce")) {
      return;  // a gate not driven by the command line; a reused cell has its own
    }
    if (const auto id = cell.id(); id && id->stage == results::Stage::k_coverage) {
      return;  // no boot of its own: its coverage cells have their reproducers
    }
    const MatrixCell* matrix_cell = nullptr;
    for (const auto& c : m_request.matrix.cells) {
      matrix_cell = results::CellId::session(c.target, c.test_case).to_string() == cell.cell
                        ? &c
                        : matrix_cell;
    }
    bool timing = false;
    if (matrix_cell) {
      try {
        const auto test_case = cases::load_case(m_request.testcases, matrix_cell->test_case);
        timing = session::find_oracle(test_case.oracle) == nullptr;
      } catch (const Error&) {
        timing = false;  // the case did not load: the cell says so
      }
    }
    const fs::path dir = cell.properties.count("run_dir")
                             ? fs::path(cell.properties.at("run_dir"))
                             : m_request.run_dir / "cells" / file_safe(m_name + "-" + cell.cell);
    const auto file = write_reproducer(
        dir, cell.series, cell.cell, results::outcome_name(cell.status) + ": " + cell.summary,
        reproduce_commands(m_request.reproduce, m_index, cell.cell, matrix_cell, timing));
    cell.properties["reproduce"] = file.string();
  }

  // START: when the series began loading; the apply cell's seconds are the
  // gate's "apply" time, so a merge of shards sums what one gate measures.
  std::optional<git::ApplyResult> apply(const std::vector<std::unique_ptr<Series>>& chain,
                                        Clock::time_point start) {
    git::ApplyRequest request;
    request.base = m_request.base;
    request.base_label = m_request.base_label;
    for (const auto& series : chain) {
      request.chain.push_back(series.get());
    }
    auto applied = git::apply_chain(m_services.store, request);
    results::CellResult cell{
        m_name, results::CellId::apply().to_string(), results::Outcome::k_pass, "", "", 0, {}};
    const std::size_t own = chain.back()->patches.size();
    for (std::size_t i = applied.outcomes.size() - std::min(own, applied.outcomes.size());
         i < applied.outcomes.size(); ++i) {
      const auto& outcome = applied.outcomes[i];
      const int patch = outcome.index + 1;
      results::set_patch_fact(cell.properties, patch, results::PatchFact::k_apply,
                              outcome.status == git::PatchStatus::k_applied  ? "applied"
                              : outcome.status == git::PatchStatus::k_failed ? "failed"
                                                                             : "not attempted");
      if (outcome.status == git::PatchStatus::k_applied) {
        results::set_patch_fact(cell.properties, patch, results::PatchFact::k_commit,
                                git::to_hex(outcome.commit));
      }
    }
    if (!applied.complete || !applied.tip) {
      cell.status = results::Outcome::k_fail;
      for (const auto& outcome : applied.outcomes) {
        if (outcome.status == git::PatchStatus::k_failed) {
          cell.summary = outcome.label + " does not apply";
          cell.detail += outcome.label + " does not apply:\n" + outcome.failure + "\n";
        }
      }
      cell.seconds = seconds_since(start);
      record(std::move(cell));
      return std::nullopt;
    }
    cell.summary = std::to_string(chain.back()->patches.size()) + " patch(es) applied onto " +
                   m_request.base_label;
    for (const auto& warning : applied.warnings) {  // base-commit, point release
      cell.summary += "; warning: " + warning;
    }
    cell.properties["tip"] = git::to_hex(*applied.tip);
    cell.seconds = seconds_since(start);
    record(std::move(cell));
    return applied;
  }

  void checkpatch(const Series& series, const git_oid& tip) {
    const std::string cell_name = results::CellId::checkpatch().to_string();
    if (reuse(cell_name, work_key(cell_name, tip, std::nullopt, std::nullopt, ""))) {
      return;
    }
    Checkpatch checker(m_services.store, m_request.base, m_request.run_dir / "checkpatch",
                       m_services.runner);
    auto cell = checkpatch_stage(m_name, series, checker);
    m_time[gate_time_stage(results::CellId::checkpatch())] += cell.seconds;
    record(std::move(cell));
  }

  void per_patch(const Series& series, const git::ApplyResult& applied) {
    if (!m_request.matrix.per_patch_target) {
      return;
    }
    const std::string cell_name =
        results::CellId::per_patch(*m_request.matrix.per_patch_target).to_string();
    if (reuse(cell_name, work_key(cell_name, *applied.tip, *m_request.matrix.per_patch_target,
                                  std::nullopt, ""))) {
      return;
    }
    const auto target = kernel::load_target(m_request.configs, *m_request.matrix.per_patch_target);
    auto cell =
        per_patch_stage({m_name, &series, &applied, &target, m_request.base, m_request.run_dir},
                        m_services.builder, m_status);
    m_time[gate_time_stage(results::CellId::per_patch(""))] += cell.seconds;
    record(std::move(cell));
  }

  // A stage's cell recorded with its time; an Error becomes an error cell,
  // and an interruption is recorded (an error is never reused by --resume)
  // before the gate stops.
  template <class Stage>
  void run_stage(const std::string& cell_name, const std::string& time_stage, Stage stage,
                 std::map<std::string, std::string> error_properties = {}) {
    const auto start = Clock::now();
    results::CellResult cell;
    try {
      cell = stage();
    } catch (const Error& e) {
      cell = {m_name,
              cell_name,
              results::Outcome::k_error,
              e.what(),
              e.what(),
              seconds_since(start),
              std::move(error_properties)};
      if (e.kind() == ErrorKind::k_interrupted) {
        m_interrupted_in_a_cell = true;
        m_time[time_stage] += cell.seconds;
        record(std::move(cell));
        throw;
      }
    }
    m_time[time_stage] += cell.seconds;
    record(std::move(cell));
  }

  // per-patch-timing (gate/session_cells.h), when the matrix asks for it.
  void per_patch_timing(const Series& series, const git::ApplyResult& applied) {
    if (!m_request.matrix.per_patch_timing) {
      return;
    }
    const auto& spec = *m_request.matrix.per_patch_timing;
    const std::string cell_name =
        results::CellId::per_patch_timing(spec.target, spec.test_case).to_string();
    if (reuse(cell_name,
              work_key(cell_name, *applied.tip, spec.target, spec.test_case, cell_options(spec)))) {
      return;
    }
    const PerPatchTimingInput input{
        m_name, &series, &applied,
        m_request.run_dir / "cells" / file_safe(m_name + "-" + cell_name)};
    run_stage(cell_name, gate_time_stage(results::CellId::per_patch_timing("", "")),
              [&] { return per_patch_timing_stage(m_request, input, m_services, m_status); });
  }

  // A cell's options for its work key.
  static std::string cell_options(const MatrixCell& cell) {
    std::string options = "rebinds=" + std::to_string(cell.rebinds.value_or(30));
    for (const auto& setup : cell.setups.value_or(std::vector<std::string>{})) {
      options += " setup=" + setup;
    }
    return options;
  }

  // The coverage stage (gate/coverage_stage.h) over this revision's
  // coverage cells, when the matrix has any.
  void coverage(const Series& series, const git_oid& tip) {
    const auto cells = coverage_cells(m_request.matrix, m_request.configs);
    if (cells.empty()) {
      return;
    }
    const std::string cell_name = results::CellId::coverage().to_string();
    CoverageStageInput input;
    input.series_name = m_name;
    input.series = &series;
    input.tip = tip;
    input.matrix = &m_request.matrix;
    input.configs = m_request.configs;
    input.out_dir = m_request.run_dir / "cells" / file_safe(m_name + "-" + cell_name);
    std::string options;  // what the coverage cells were: their own work keys
    for (const auto& matrix_cell : cells) {
      const std::string name =
          results::CellId::session(matrix_cell.target, matrix_cell.test_case).to_string();
      options += name + "=" + m_work[name] + " ";
      fs::path dir = m_request.run_dir / "cells" / file_safe(m_name + "-" + name);
      for (const auto& stored : m_store.cells()) {
        if (stored.series == m_name && stored.cell == name && stored.properties.count("run_dir")) {
          dir = stored.properties.at("run_dir");
        }
      }
      input.cells.push_back({name, matrix_cell.target, dir});
    }
    // The policy decides the verdict too, and the matrix's targets the
    // reasons ("no target of this matrix"): another one judges again.
    for (const auto& matrix_cell : m_request.matrix.cells) {
      options += "target=" + matrix_cell.target + " ";
    }
    options += "per-patch=" + m_request.matrix.per_patch_target.value_or("") + " ";
    const auto& policy = m_request.matrix.coverage;
    if (policy.min_percent) {
      options += "min=" + std::to_string(*policy.min_percent) + " ";
    }
    for (const auto& range : policy.require) {
      options += "require " + range.file + ":" + std::to_string(range.first) + "-" +
                 std::to_string(range.last) + " ";
    }
    if (reuse(cell_name, work_key(cell_name, tip, std::nullopt, std::nullopt, options))) {
      return;
    }
    m_status.progress("gate " + m_name + ": coverage of the changed lines over " +
                      std::to_string(cells.size()) + " coverage cell(s)");
    run_stage(cell_name, gate_time_stage(results::CellId::coverage()), [&] {
      return coverage_stage(input, m_services.store, m_services.builder, m_status);
    });
  }

  // A matrix cell at the tip (gate/session_cells.h).
  void run_cell(const MatrixCell& matrix_cell, const git_oid& tip) {
    const std::string cell_name =
        results::CellId::session(matrix_cell.target, matrix_cell.test_case).to_string();
    if (reuse(cell_name, work_key(cell_name, tip, matrix_cell.target, matrix_cell.test_case,
                                  cell_options(matrix_cell)))) {
      return;
    }
    const SessionCellInput input{m_name, &matrix_cell, tip,
                                 m_request.run_dir / "cells" / file_safe(m_name + "-" + cell_name)};
    run_stage(cell_name, gate_time_stage(results::CellId::session("", "")),
              [&] { return session_cell_stage(m_request, input, m_services, m_status); },
              {{"run_dir", input.dir.string()}});
  }

  const GateRequest& m_request;
  GateServices& m_services;
  results::CellStore& m_store;
  session::Status& m_status;
  std::map<std::string, double>& m_time;
  std::vector<GatedRevision>& m_revisions;
  std::string m_name;
  std::string m_identity;
  std::size_t m_index = 0;  // in m_request.series (and m_request.reproduce.series)
  std::map<std::string, std::string> m_work;  // cell -> its work_key
  bool m_interrupted_in_a_cell = false;
};

// With --shard, RUN_DIR/shard.json: the plan with the series named so far
// (by the gate's one load of each; the rest by their directories until
// then), the revisions for the merge's comparison, and whether it finished.
std::string write_shard(const GateRequest& request, const std::vector<PlanSeries>& named,
                        const std::vector<GatedRevision>& revisions, bool finished) {
  if (!request.share) {
    return "";
  }
  std::vector<PlanSeries> series = named;
  for (std::size_t i = named.size(); i < request.series.size(); ++i) {
    series.push_back({unloaded_series_name(request.series[i]), request.series[i], std::nullopt});
  }
  ShardRecord record{make_plan(request.matrix, std::move(series), request.share->plan.shards),
                     request.share->index,
                     git::to_hex(request.base),
                     request.run_dir,
                     revisions,
                     finished};
  write_shard_record(record);
  return record.plan.id;
}

// reproduce.sh for a revision-regression cell: the newer revision booted
// against the older on the cell that was slower.
void reproduce_finding(const GateRequest& request,
                       const std::vector<results::SeriesVerdict>& verdicts, std::size_t newer,
                       const RevisionFinding& finding, results::CellResult& cell) {
  const MatrixCell* matrix_cell = nullptr;
  for (const auto& c : request.matrix.cells) {
    matrix_cell = results::CellId::session(c.target, c.test_case).to_string() == finding.cell
                      ? &c
                      : matrix_cell;
  }
  std::size_t older = verdicts.size();
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    older = verdicts[i].series == finding.from ? i : older;
  }
  if (request.reproduce.series.empty() || !matrix_cell) {
    return;
  }
  const auto file =
      write_reproducer(request.run_dir / "cells" / file_safe(cell.series + "-" + cell.cell),
                       cell.series, cell.cell, "fail: " + cell.summary,
                       reproduce_against_commands(request.reproduce, newer, older, *matrix_cell));
  cell.properties["reproduce"] = file.string();
}

// A revision slower than its predecessor: beyond the matrix's policy, a
// failing cell of the newer revision, which is judged again; else a warning
// on its verdict line (gate/revision_regression.h).
void judge_revision_findings(const GateRequest& request, const std::vector<std::string>& planned,
                             const std::vector<std::optional<Expectations>>& expected,
                             results::CellStore& store, GateResult& result) {
  const auto findings = revision_findings(result.revisions, request.matrix.revision_regression);
  // Checkpatch errors a revision adds against its predecessor, likewise.
  const auto style =
      checkpatch_findings(result.revisions, store.cells(), request.matrix.checkpatch);
  for (std::size_t i = 0; i < result.verdicts.size(); ++i) {
    results::SeriesVerdict& verdict = result.verdicts[i];
    std::vector<const RevisionFinding*> failing;
    std::vector<std::string> warnings, style_failing;
    for (const auto& finding : findings) {
      if (finding.series != verdict.series) {
        continue;
      }
      if (finding.fails && !verdict.known_bad) {
        failing.push_back(&finding);
      } else {
        warnings.push_back(finding.text());
      }
    }
    for (const auto& finding : style) {
      if (finding.series == verdict.series) {
        (finding.fails && !verdict.known_bad ? style_failing : warnings).push_back(finding.text());
      }
    }
    results::CellResult cell{
        verdict.series, k_revision_regression_cell, results::Outcome::k_fail, "", "", 0, {}};
    add_checkpatch_failures(style_failing, request.matrix, cell);
    if (!failing.empty()) {
      const auto& policy = *request.matrix.revision_regression;
      char max[32];
      std::snprintf(max, sizeof max, "%g", policy.max_percent);
      cell.summary = failing.front()->text() + " (policy: max=" + max + " %" +
                     (policy.metric ? " " + *policy.metric : std::string()) + ")" +
                     (cell.summary.empty() ? "" : "; " + cell.summary);
      for (const auto* finding : failing) {
        cell.detail += finding->text() + "\n";
      }
      cell.properties["policy.max_percent"] = max;
      cell.properties["policy.line"] =
          request.matrix.file.string() + ":" + std::to_string(policy.line);
      reproduce_finding(request, result.verdicts, i, *failing.front(), cell);
    }
    if (!failing.empty() || !style_failing.empty()) {
      store.record(std::move(cell));
      const std::string identity = verdict.identity;
      verdict = judge_series(verdict.series, store.cells(), expected[i], &planned);
      verdict.identity = identity;
    }
    verdict.warnings = warnings;
    if (!failing.empty() || !style_failing.empty() || !warnings.empty()) {
      store.judge(verdict);
    }
  }
  result.cells = store.cells();
  result.ok = std::all_of(result.verdicts.begin(), result.verdicts.end(),
                          [](const results::SeriesVerdict& v) { return v.ok; });
}

}  // namespace

GateResult run_gate(const GateRequest& request, GateServices& services, session::Status& status) {
  const auto start = Clock::now();
  results::CellStore store(request.run_dir / "gate.json");
  if (request.resume) {
    store.load_previous(*request.resume);
  }
  store.set_base(git::to_hex(request.base), request.base_label);
  std::map<std::string, double> time;
  std::vector<GatedRevision> revisions;
  GateResult result;
  result.ok = true;
  // The cells this matrix can judge, for the expectations.
  std::vector<std::string> planned{results::CellId::apply().to_string(),
                                   results::CellId::checkpatch().to_string()};
  if (request.matrix.per_patch_target) {
    planned.push_back(results::CellId::per_patch(*request.matrix.per_patch_target).to_string());
  }
  for (const auto& cell : request.matrix.cells) {
    planned.push_back(results::CellId::session(cell.target, cell.test_case).to_string());
  }
  if (request.matrix.revision_regression || request.matrix.checkpatch) {
    planned.push_back(k_revision_regression_cell);
  }
  if (!coverage_cells(request.matrix, request.configs).empty()) {
    planned.push_back(results::CellId::coverage().to_string());
  }
  std::vector<std::optional<Expectations>> expected;  // per verdict, to judge again
  std::vector<PlanSeries> named;  // each series as the gate named it, for the shard record
  write_shard(request, named, revisions, false);
  for (const auto& dir : request.series) {
    SeriesGate gate(request, services, store, status, time, revisions);
    try {
      gate.run(dir);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::k_interrupted) {
        throw;
      }
      status.progress("gate interrupted: " + std::string(e.what()).substr(0, 120));
      result.interrupted = true;
      result.interruption = e.what();
      result.interruption_in_a_cell = gate.interrupted_in_a_cell();
    }
    const std::string name = gate.name().empty() ? dir.string() : gate.name();
    named.push_back(plan_series(name, dir));
    auto expectations = series_expectations(named.back());
    if (request.share && expectations) {
      request.share->restrict(*expectations);
    }
    auto verdict = judge_series(name, store.cells(), expectations, &planned);
    verdict.identity = gate.identity();
    expected.push_back(expectations);
    if (result.interrupted) {
      // Its cells so far are kept; a verdict needs them all (--resume).
      verdict.ok = false;
      verdict.interrupted = true;
    }
    result.ok = result.ok && verdict.ok && !result.interrupted;
    result.verdicts.push_back(verdict);
    store.judge(verdict);
    if (result.interrupted) {
      break;
    }
  }
  result.cells = store.cells();
  result.reused = store.reused();
  // Which patches and cells moved between consecutive revisions (v6 -> v10).
  result.revisions = compare_revisions(revisions, result.cells);
  if (!result.revisions.empty()) {
    // Timing revision against revision, from the samples the cells kept.
    const auto record = report::load_run(request.run_dir);
    for (auto& comparison : result.revisions) {
      comparison.timings = report::revision_timings(record, comparison.from, comparison.to);
    }
  }
  if (!result.interrupted) {
    judge_revision_findings(request, planned, expected, store, result);
  }
  double accounted = 0;
  for (const std::string& stage : gate_time_stages()) {
    result.time.emplace_back(stage, time[stage]);
    accounted += time[stage];
  }
  result.time.emplace_back("kseries itself (judging, reports, the rest)",
                           seconds_since(start) - accounted);
  finish_store(store, result);
  result.plan_id = write_shard(request, named, revisions, !result.interrupted);
  return result;
}

void finish_store(results::CellStore& store, const GateResult& result) {
  if (!result.revisions.empty()) {
    store.set_section("revisions", comparisons_json(result.revisions));
  }
  store.finish(result.ok, result.interrupted, result.time);
}

std::string render_gate(const GateResult& result) {
  std::ostringstream out;
  for (const auto& verdict : result.verdicts) {
    out << "series " << verdict.series << (verdict.known_bad ? " (known-bad)" : "") << "\n";
    if (!verdict.identity.empty()) {
      out << "  identity: " << verdict.identity << "\n";
    }
    for (const auto& cell : result.cells) {
      if (cell.series == verdict.series) {
        out << "  " << results::outcome_name(cell.status) << "  " << cell.cell << ": "
            << cell.summary << " (" << static_cast<int>(cell.seconds) << " s)\n";
        if (const auto it = cell.properties.find("reproduce"); it != cell.properties.end()) {
          out << "        reproduce: " << reproduce_line(it->second) << "\n";
        }
        if (const auto it = cell.properties.find("coverage.cells"); it != cell.properties.end()) {
          for (const auto line : split_lines(it->second)) {
            if (!line.empty()) {
              out << "        " << line << "\n";
            }
          }
          if (const auto text = cell.properties.find("coverage_text");
              text != cell.properties.end()) {
            out << "        per line: " << text->second << "\n";
          }
        }
      }
    }
    for (const auto& line : verdict.lines) {
      out << "  " << line << "\n";
    }
    out << "  verdict: "
        << (verdict.interrupted ? "INTERRUPTED (not judged: the cells that did not run decide)"
            : verdict.ok ? (verdict.known_bad ? "EXPECTED (every expectation holds)" : "PASS")
                         : "FAIL");
    for (const auto& warning : verdict.warnings) {
      out << ", warning: " << warning;
    }
    out << "\n";
  }
  for (const auto& comparison : result.revisions) {
    out << render_comparison(comparison);
  }
  out << "time:";
  for (const auto& [stage, seconds] : result.time) {
    out << " " << stage << " " << static_cast<int>(seconds) << " s;";
  }
  out << "\n";
  if (result.reused > 0) {
    out << "resumed: " << result.reused << " cell(s) reused, "
        << result.cells.size() - result.reused << " run\n";
  }
  if (result.interrupted) {
    out << "gate: INTERRUPTED after " << result.cells.size()
        << " cell(s); finish it with --resume RUN_DIR (finished cells are reused)\n";
    return out.str();
  }
  out << "gate: " << (result.ok ? "PASS" : "FAIL") << "\n";
  return out.str();
}

}  // namespace kseries::gate
