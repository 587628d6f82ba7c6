#pragma once
// A gate's plan (gate/plan.h) split into independent jobs for several
// machines (`kseries plan`, `kseries gate --shard I/N`). A job is one
// target: every build of that target (the base, each series' tip, the
// per-patch builds) and every boot on it, so no two shards build the same
// kernel; one more job, `series`, holds each series' apply and checkpatch
// cells (every shard applies, which is cheap, but only that job's shard
// records them); `coverage` holds the coverage cells and the stage that
// reads their cover files. The after-series cells (revision-regression)
// are in no job: the merge runs them over every shard's cells. Jobs go to
// shards longest first (by cell count) onto the least loaded shard, ties in
// plan order: the same plan on every machine.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate/checkpatch_policy.h"
#include "gate/expectations.h"
#include "gate/matrix.h"
#include "gate/revision_compare.h"

namespace kseries::gate {

struct PlanSeries {
  std::string name;                   // as the gate names it (gate/series_name.h)
  std::filesystem::path dir;          // where the plan was made; not part of its id
  std::optional<std::string> expect;  // the `expect` file's text (known-bad revisions)
};

struct PlanJob {
  std::string id;  // "series", or "target pmem"
  std::vector<std::string>
      cells;      // cell names, for every series: "per-patch pmem", "pmem memmap-timing"
  int shard = 0;  // 1-based
};

struct Plan {
  std::string id;  // 16 hex digits over the matrix, the series, their expectations, the shard count
  std::string matrix;
  std::vector<PlanSeries> series;
  int shards = 1;
  std::vector<PlanJob> jobs;
  std::vector<std::string> cells;  // every cell name of the gate's plan, in its order
  // The matrix's revision-regression policy and the matrix file it was
  // read from: the merge judges with the policy a single gate has.
  std::optional<RevisionRegressionPolicy> revision_regression;
  std::optional<CheckpatchPolicy> checkpatch;  // likewise its checkpatch policy
  std::string matrix_file;

  // The shard that runs CELL (a cell name), 0 when no shard does (an
  // after-series cell, or one the plan does not have).
  int shard_of(const std::string& cell) const;
};

// "2/3" -> {2, 3}; Error(k_usage) unless 1 <= I <= N.
struct ShardSpec {
  int index = 1;
  int count = 1;
};
ShardSpec parse_shard_spec(const std::string& text);

// The gate plan of MATRIX on SHARDS for SERIES (named as the gate names
// them). The jobs and their shards depend on the matrix and the shard
// count only, so a gate can take its share before it has loaded (named)
// any series.
Plan make_plan(const ResolvedMatrix& matrix, std::vector<PlanSeries> series, int shards);

// A series of the plan: its gate name and its `expect` file's text (read
// from DIR/expect; the series source itself is not read).
PlanSeries plan_series(const std::string& name, const std::filesystem::path& dir);

// For `kseries plan`: loads each series (gate/series_name.h) to name it.
std::vector<PlanSeries> load_plan_series(const std::vector<std::filesystem::path>& series_dirs);

// The expectations of a series of a plan (parsed from its text).
std::optional<Expectations> series_expectations(const PlanSeries& series);

nlohmann::json plan_json(const Plan& plan);
Plan plan_from_json(const nlohmann::json& json);  // Error(k_usage) on a malformed plan

// One shard's share of a plan: what `gate --shard` runs and judges.
struct Share {
  Plan plan;
  int index = 1;
  bool contains(const std::string& cell) const { return plan.shard_of(cell) == index; }
  // Drops the expectations of cells another shard runs: the merge judges those.
  void restrict(Expectations& expectations) const;
};

// RUN_DIR/shard.json: the plan, which shard this run is, the base commit,
// the run directory it was written in (the merge finds the shard's logs
// where its directory has been copied to), each series as the revision
// comparison needs it (the merge has no series checkout), and whether the
// gate finished (written at the start with finished=false, so an
// interrupted shard is never merged as if complete).
struct ShardRecord {
  Plan plan;
  int index = 1;
  std::string base;
  std::filesystem::path run_dir;
  std::vector<GatedRevision> revisions;
  bool finished = false;
};
void write_shard_record(const ShardRecord& record);
// Error(k_usage) naming the file when RUN_DIR has no readable shard.json.
ShardRecord read_shard_record(const std::filesystem::path& run_dir);

}  // namespace kseries::gate
