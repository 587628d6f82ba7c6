#include "gate/gate.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "core/elapsed.h"
#include "core/error.h"
#include "core/text.h"
#include "gate/checkpatch.h"
#include "gate/checkpatch_findings.h"
#include "gate/coverage_stage.h"
#include "gate/expectations.h"
#include "gate/per_patch.h"
#include "gate/plan.h"
#include "gate/reproducer.h"
#include "gate/revision_regression.h"
#include "gate/runner.h"
#include "gate/series_name.h"
#include "gate/stages.h"
#include "report/run_record.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

// With --shard, RUN_DIR/shard.json: the plan with the series named so far
// (by the gate's one load of each; the rest by their directories until
// then), the revisions for the merge's comparison, and whether it finished.
std::string write_shard(const GateRequest& request, const std::vector<PlanSeries>& named,
                        const std::vector<GatedRevision>& revisions, bool finished) {
  if (!request.share) {
    return "";
  }
  std::vector<PlanSeries> series = named;
  // The series not reached yet (an interrupted run) with their
  // expectations, as `kseries plan` reads them, so that the record names
  // the plan the other shards name; not loaded (a FIFO is read once, by
  // its run).
  for (std::size_t i = named.size(); i < request.series.size(); ++i) {
    series.push_back(plan_series(unloaded_series_name(request.series[i]), request.series[i]));
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

// Timing revision against revision, from the samples the cells kept.
std::vector<RevisionComparison> revisions_of(const GateRequest& request,
                                             const std::vector<GatedRevision>& revisions,
                                             const std::vector<results::CellResult>& cells) {
  auto comparisons = compare_revisions(revisions, cells);
  if (!comparisons.empty()) {
    const auto record = report::load_run(request.run_dir);
    for (auto& comparison : comparisons) {
      comparison.timings = report::revision_timings(record, comparison.from, comparison.to);
    }
  }
  return comparisons;
}

}  // namespace

GateResult run_gate(const GateRequest& request, GateServices& services, session::Status& status) {
  const auto start = SteadyClock::now();
  results::CellStore store(request.run_dir / "gate.json");
  if (request.resume) {
    store.load_previous(*request.resume);
  }
  store.set_base(git::to_hex(request.base), request.base_label);
  const GatePlan plan = make_gate_plan(request.matrix);
  const std::vector<std::string> planned = plan.names();
  Runner runner(request, plan, services, store, status);
  GateResult result;
  std::vector<JudgedSeries> judged;
  std::vector<PlanSeries> named;  // each series as the gate named it, for the shard record
  write_shard(request, named, runner.revisions(), false);
  // Run: each series through its cells, judged as it finishes (an
  // interrupted gate keeps the verdicts so far).
  for (std::size_t i = 0; i < request.series.size() && !result.interrupted; ++i) {
    try {
      runner.run_series(request.series[i], i);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::k_interrupted) {
        throw;
      }
      status.progress("gate interrupted: " + std::string(e.what()).substr(0, 120));
      result.interrupted = true;
      result.interruption = e.what();
      result.interruption_in_a_cell = runner.interrupted_in_a_cell();
    }
    const std::string name = runner.series_name(i);
    named.push_back(plan_series(name, request.series[i]));
    auto expectations = series_expectations(named.back());
    if (request.share && expectations) {
      request.share->restrict(*expectations);  // the merge judges the rest
    }
    judged.push_back({name, runner.identity(name), std::move(expectations)});
    auto verdict = judge_series(name, store.cells(), judged.back().expectations, planned);
    verdict.identity = judged.back().identity;
    if (result.interrupted) {
      verdict.outcome = results::Outcome::k_interrupted;  // its cells so far; --resume
    }
    store.judge(verdict);
    result.verdicts.push_back(std::move(verdict));
  }
  // Compare: which patches and cells moved between consecutive revisions
  // (v6 -> v10), and their timings.
  result.revisions = revisions_of(request, runner.revisions(), store.cells());
  if (!result.interrupted) {
    // After the series: what judges one revision against another (in a
    // sharded gate, the merge's), then every series judged again.
    if (!request.share) {
      std::vector<AfterSeriesInput::SeriesFacts> facts;
      for (const auto& s : judged) {
        facts.push_back({s.name, s.expectations.has_value()});
      }
      runner.run_after_series({facts, result.revisions, request.matrix.revision_regression,
                               request.matrix.file.string(), store.cells(),
                               request.matrix.checkpatch});
    }
    result.verdicts = judge_gate(planned, judged, store.cells(), result.revisions,
                                 request.matrix.revision_regression, request.matrix.checkpatch)
                          .verdicts;
    for (const auto& verdict : result.verdicts) {
      store.judge(verdict);
    }
  }
  result.outcome = gate_outcome(result.verdicts, result.interrupted);
  result.cells = store.cells();
  result.reused = store.reused();
  double accounted = 0;
  for (const std::string& stage : gate_time_stages()) {
    const auto it = runner.time().find(stage);
    const double seconds = it == runner.time().end() ? 0 : it->second;
    result.time.emplace_back(stage, seconds);
    accounted += seconds;
  }
  result.time.emplace_back("kseries itself (judging, reports, the rest)",
                           seconds_since(start) - accounted);
  finish_store(store, result);
  result.plan_id = write_shard(request, named, runner.revisions(), !result.interrupted);
  return result;
}

void finish_store(results::CellStore& store, const GateResult& result) {
  if (!result.revisions.empty()) {
    store.set_section("revisions", comparisons_json(result.revisions));
  }
  store.finish(result.outcome, result.time);
}

std::string judged_by_line(const std::vector<results::CellResult>& cells) {
  std::map<std::string, std::size_t> count;
  for (const auto& cell : cells) {
    const auto it = cell.properties.find("judged_by");
    ++count[it == cell.properties.end() ? std::string() : it->second];
  }
  if (count.empty() || (count.size() == 1 && count.begin()->first.empty())) {
    return "";
  }
  if (count.size() == 1) {
    return "judged by kseries " + count.begin()->first + "\n";
  }
  std::vector<std::pair<std::string, std::size_t>> builds(count.begin(), count.end());
  std::stable_sort(builds.begin(), builds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string line = "judged by " + std::to_string(builds.size()) + " builds of kseries:";
  for (const auto& [build, n] : builds) {
    line += " " + (build.empty() ? std::string("not recorded") : build) + " (" + std::to_string(n) +
            " cell(s)),";
  }
  line.back() = ';';
  return line +
         " a reused cell keeps the verdict of the build that judged it, whose rules may "
         "differ\n";
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
    for (const auto& reason : verdict.reasons) {
      out << "  " << results::reason_line(reason) << "\n";
    }
    out << "  verdict: " << results::verdict_word(verdict.outcome);
    if (verdict.outcome == results::Outcome::k_xfail) {
      out << " (every expectation holds)";
    } else if (verdict.outcome == results::Outcome::k_interrupted) {
      out << " (not judged: the cells that did not run decide)";
    }
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
  out << judged_by_line(result.cells);
  if (result.reused > 0) {
    out << "resumed: " << result.reused << " cell(s) reused, "
        << result.cells.size() - result.reused << " run\n";
  }
  if (result.interrupted) {
    out << "gate: INTERRUPTED after " << result.cells.size()
        << " cell(s); finish it with --resume RUN_DIR (finished cells are reused)\n";
    return out.str();
  }
  out << "gate: " << results::verdict_word(result.outcome) << "\n";
  return out.str();
}

}  // namespace kseries::gate
