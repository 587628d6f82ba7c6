#include "gate/merge.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>

#include "core/error.h"
#include "gate/judge.h"
#include "gate/reproducer.h"
#include "gate/revision_regression.h"
#include "gate/runner.h"
#include "gate/stages.h"
#include "report/revision_timing.h"
#include "report/run_record.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

// A shard's run directory as given to the merge, with its shard.json.
struct ShardRun {
  fs::path dir;
  ShardRecord record;
  const Plan& plan() const { return record.plan; }
  int index() const { return record.index; }
};

ShardRun read_shard(const fs::path& dir) { return {dir, read_shard_record(dir)}; }

// VALUE with the shard's recorded run directory replaced by where the
// directory is now (its artifacts copied to another machine).
std::string relocate(const std::string& value, const ShardRun& run) {
  const std::string from = run.record.run_dir.string() + "/";
  if (run.record.run_dir.empty() || run.record.run_dir == run.dir ||
      value.compare(0, from.size(), from) != 0) {
    return value;
  }
  return (run.dir / value.substr(from.size())).string();
}

std::string shard_name(const ShardRun& run) {
  return "shard " + std::to_string(run.index()) + "/" + std::to_string(run.plan().shards) + " (" +
         run.dir.string() + ")";
}

// Every shard present once, all finished, of one plan and one base. An
// unfinished shard is named first: its plan may still name a series by its
// directory (the gate had not loaded it yet), so its plan id may differ.
void check_shards(const std::vector<ShardRun>& runs) {
  for (const auto& run : runs) {
    if (!run.record.finished) {
      throw usage_error(shard_name(run) +
                        " did not finish (interrupted?): finish it with `kseries gate --shard " +
                        std::to_string(run.index()) + "/" + std::to_string(run.plan().shards) +
                        " --resume " + run.dir.string() + "` and merge that run");
    }
  }
  const ShardRun& first = runs.front();
  const auto describe = [](const ShardRun& run) {
    return shard_name(run) + " of plan " + run.plan().id + " (matrix " + run.plan().matrix + ", " +
           std::to_string(run.plan().series.size()) + " series, " +
           std::to_string(run.plan().shards) + " shards)";
  };
  std::map<int, const ShardRun*> seen;
  for (const auto& run : runs) {
    if (run.plan().id != first.plan().id) {
      throw usage_error(describe(run) + ", " + describe(first) +
                        ": shards of different plans do not merge");
    }
    if (run.record.base != first.record.base) {
      throw usage_error(shard_name(run) + " gated against base " + run.record.base + ", " +
                        shard_name(first) + " against " + first.record.base);
    }
    if (run.index() < 1 || run.index() > run.plan().shards) {
      throw usage_error(shard_name(run) + ": no such shard in the plan");
    }
    if (const auto [it, fresh] = seen.emplace(run.index(), &run); !fresh) {
      throw usage_error("shard " + std::to_string(run.index()) + "/" +
                        std::to_string(run.plan().shards) +
                        " given twice: " + it->second->dir.string() + " and " + run.dir.string());
    }
  }
  std::string missing;
  for (int i = 1; i <= first.plan().shards; ++i) {
    if (!seen.count(i)) {
      missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" +
                 std::to_string(first.plan().shards);
    }
  }
  if (!missing.empty()) {
    throw usage_error("shard(s) " + missing + " missing: give the run directory of every shard");
  }
}

// Where one gate records a cell: each series' cells in the plan's order,
// series after series; then the after-series cells (in no shard's job),
// series after series.
std::tuple<bool, std::size_t, std::size_t> position(const Plan& plan,
                                                    const results::CellResult& cell) {
  std::size_t s = 0;
  while (s < plan.series.size() && plan.series[s].name != cell.series) {
    ++s;
  }
  const auto c = std::find(plan.cells.begin(), plan.cells.end(), cell.cell) - plan.cells.begin();
  const bool after =
      c < static_cast<std::ptrdiff_t>(plan.cells.size()) && plan.shard_of(cell.cell) == 0;
  return {after, s, static_cast<std::size_t>(c)};
}

// The shard's cells into RESULT, each checked against the plan and the
// cells of the shards before it; its paths relocated.
void take_cells(const ShardRun& run, MergeResult& result,
                std::map<std::pair<std::string, std::string>, fs::path>& owner) {
  const Plan& plan = result.plan;
  for (auto& cell : results::load_cells(run.dir / "gate.json")) {
    const auto at = position(plan, cell);
    const std::size_t s = std::get<1>(at), c = std::get<2>(at);
    if (s == plan.series.size() || c == plan.cells.size()) {
      throw usage_error(run.dir.string() + ": cell '" + cell.series + ": " + cell.cell +
                        "' is not in plan " + plan.id);
    }
    if (plan.shard_of(cell.cell) != run.index()) {
      throw usage_error(shard_name(run) + " holds cell '" + cell.series + ": " + cell.cell +
                        "', which plan " + plan.id + " gives to shard " +
                        std::to_string(plan.shard_of(cell.cell)));
    }
    const auto [it, fresh] = owner.emplace(std::make_pair(cell.series, cell.cell), run.dir);
    if (!fresh) {
      throw usage_error("cell '" + cell.series + ": " + cell.cell + "' recorded twice (" +
                        it->second.string() + ", " + run.dir.string() + ")");
    }
    for (auto& [key, value] : cell.properties) {
      value = relocate(value, run);
    }
    // Printed as a line to paste into a shell: only the shard's own
    // reproduce.sh (a tampered value is dropped, never printed).
    if (const auto it = cell.properties.find("reproduce");
        it != cell.properties.end() && !shard_reproducer(it->second, run.dir)) {
      cell.properties.erase(it);
    }
    result.gate.cells.push_back(std::move(cell));
  }
}

// The series records (patches) of the shard that ran the apply cells: every
// shard applies, only that one's record is taken, in the plan's order.
void take_series(const std::vector<ShardRun>& runs, MergeResult& result) {
  const int owner = result.plan.shard_of(results::CellId::apply().to_string());
  for (const auto& run : runs) {
    if (run.index() != owner) {
      continue;
    }
    const auto stored = results::load_gate_store(run.dir / "gate.json");
    result.base_label = stored.base_label;
    for (const auto& series : result.plan.series) {
      results::SeriesRecord record{series.name, series.dir.string(), {}, std::nullopt};
      for (const auto& s : stored.series) {
        if (s.series == series.name) {
          record = s;  // its verdict is the shard's until the merge judges
          for (auto& patch : record.patches) {
            patch.file = relocate(patch.file, run);
          }
        }
      }
      result.series.push_back(std::move(record));
    }
    result.gate.revisions = compare_revisions(run.record.revisions, result.gate.cells);
  }
}

// The after-series cells (revision-regression) over every shard's timing,
// as one gate runs them at its end; then every series judged by the judge
// one gate has: an expectation one shard cannot see is checked here, and a
// cell that did not run anywhere is missed here.
void judge(MergeResult& result) {
  const Plan& plan = result.plan;
  // Every series must have a cell somewhere: its apply cell's shard ran.
  for (const auto& series : plan.series) {
    if (std::none_of(result.gate.cells.begin(), result.gate.cells.end(),
                     [&](const results::CellResult& c) { return c.series == series.name; })) {
      throw usage_error(
          "series " + series.name + " has no cell in any shard (its apply cell is " + "shard " +
          std::to_string(plan.shard_of(results::CellId::apply().to_string())) + "'s)");
    }
  }
  std::vector<JudgedSeries> judged;
  std::vector<AfterSeriesInput::SeriesFacts> facts;
  for (const auto& series : plan.series) {
    judged.push_back({series.name, "", series_expectations(series)});
    facts.push_back({series.name, judged.back().expectations.has_value()});
  }
  const std::vector<results::CellResult> shard_cells = result.gate.cells;
  const AfterSeriesInput after{
      facts,       result.gate.revisions, plan.revision_regression, plan.matrix_file,
      shard_cells, plan.checkpatch};
  for (const auto& name : plan.cells) {
    const auto id = results::CellId::parse(name);
    const Stage* stage = id ? stage_of(*id) : nullptr;
    if (stage && stage->placement() == Placement::k_after_series) {
      const PlannedCell planned{*id, stage, nullptr, ""};
      for (auto& cell : run_after_series_cell(planned, after)) {
        result.gate.cells.push_back(std::move(cell));
      }
    }
  }
  std::stable_sort(result.gate.cells.begin(), result.gate.cells.end(),
                   [&](const results::CellResult& a, const results::CellResult& b) {
                     return position(plan, a) < position(plan, b);
                   });
  for (auto& series : judged) {
    for (const auto& record : result.series) {
      if (record.series == series.name && record.verdict) {
        series.identity = record.verdict->identity;
      }
    }
  }
  auto judgement = judge_gate(plan.cells, judged, result.gate.cells, result.gate.revisions,
                              plan.revision_regression, plan.checkpatch);
  result.gate.verdicts = std::move(judgement.verdicts);
  result.gate.outcome = judgement.outcome;
  for (auto& record : result.series) {
    record.verdict.reset();
    for (const auto& verdict : result.gate.verdicts) {
      if (verdict.series == record.series) {
        record.verdict = verdict;
      }
    }
  }
}

}  // namespace

MergeResult merge_shards(const std::vector<fs::path>& run_dirs) {
  if (run_dirs.empty()) {
    throw usage_error("give the run directory of every shard");
  }
  std::vector<ShardRun> runs;
  for (const auto& dir : run_dirs) {
    runs.push_back(read_shard(dir));
  }
  check_shards(runs);
  MergeResult result;
  result.plan = runs.front().plan();
  result.base = runs.front().record.base;
  const Plan& plan = result.plan;
  std::map<std::pair<std::string, std::string>, fs::path> owner;
  for (const auto& run : runs) {
    take_cells(run, result, owner);
  }
  std::stable_sort(result.gate.cells.begin(), result.gate.cells.end(),
                   [&](const results::CellResult& a, const results::CellResult& b) {
                     return position(plan, a) < position(plan, b);
                   });
  take_series(runs, result);
  // Timing revision against revision, as the gate computes it, from every
  // shard's cells (v6's timing cell may be on one shard and v10's on another).
  if (!result.gate.revisions.empty()) {
    report::RunRecord all;
    for (const auto& run : runs) {
      auto record = report::load_run(run.dir);
      std::move(record.cells.begin(), record.cells.end(), std::back_inserter(all.cells));
    }
    for (auto& comparison : result.gate.revisions) {
      comparison.timings = report::revision_timings(all, comparison.from, comparison.to);
    }
  }
  judge(result);
  // By the stages one gate reports (gate/stages.h), summed over the shards.
  result.gate.time = gate_time_of(result.gate.cells, " (all shards)");
  return result;
}

void write_merged_store(const MergeResult& merged, const fs::path& run_dir) {
  results::CellStore store(run_dir / "gate.json");
  store.set_base(merged.base, merged.base_label);
  for (const auto& series : merged.series) {
    store.describe(series);
  }
  for (const auto& cell : merged.gate.cells) {
    store.record(cell);
  }
  for (const auto& verdict : merged.gate.verdicts) {
    store.judge(verdict);
  }
  finish_store(store, merged.gate);
}

}  // namespace kseries::gate
