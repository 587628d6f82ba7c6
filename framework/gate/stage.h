#pragma once
// A stage of the gate behind one interface: which cells it has in a matrix
// (its part of the plan, gate/plan.h), what a cell's verdict depends on (its
// work key), the cell's outcome, and the commands that redo it. Everything
// around a cell is the runner's (gate/runner.h), the same for every stage:
// reuse under --resume, the shard filter, timing, an Error as an error cell,
// interruption, recording, reproduce.sh. A new stage is a class in its own
// file and one line in gate/stages.cc.

#include <git2.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gate/checkpatch_policy.h"
#include "gate/plan.h"
#include "gate/revision_compare.h"
#include "git/apply.h"
#include "results/gate_record.h"
#include "series/series.h"

namespace kseries::session {
class Status;
}

namespace kseries::gate {

struct GateRequest;
struct GateServices;
struct ReproduceInputs;

// One series as far as the runner has taken it: what its stages read, and
// what the apply stage fills in for the ones after it.
struct SeriesInput {
  const GateRequest& request;
  GateServices& services;
  session::Status& status;
  const results::CellStore& store;  // the cells so far (the coverage stage reads its cells')
  std::filesystem::path dir;        // the series as given
  std::size_t index = 0;            // in request.series (and request.reproduce.series)
  std::string name;                 // the gate's name of it (gate/series_name.h)
  // Filled before its cells (gate/apply_stage.h): the series and its
  // prerequisites, its identity, its patches for the reports, or why it
  // did not load; then by the apply stage, the chain applied.
  std::vector<std::unique_ptr<Series>> chain{};
  std::optional<std::string> load_error{};
  std::string identity{};
  std::optional<results::SeriesRecord> record{};
  std::optional<GatedRevision> revision{};
  std::optional<git::ApplyResult> applied{};
  // Each cell's work key so far (the runner's): the coverage stage's own
  // key is made of its coverage cells'.
  std::map<std::string, std::string> work{};

  const Series& series() const { return *chain.back(); }
  const git_oid& tip() const { return *applied->tip; }
  // RUN_DIR/cells/SERIES-CELL: a cell's logs and results.
  std::filesystem::path cell_dir(const std::string& cell) const;
};

// What a cell's work key covers beside the tip, the base, accel, clock and
// memory profile (the runner's): the target's file and fragments, the
// case's files, the cell's options.
struct WorkInput {
  std::optional<std::string> target;
  std::optional<std::string> test_case;
  std::string options;
};

// What a stage that runs once every series' cells are in reads: the same
// in one gate and in the merge of its shards.
struct AfterSeriesInput {
  struct SeriesFacts {
    std::string name;
    bool known_bad = false;
  };
  std::vector<SeriesFacts> series;  // in the gate's order
  const std::vector<RevisionComparison>& revisions;
  const std::optional<RevisionRegressionPolicy>& policy;
  std::string matrix_file;
  // Every cell so far (the checkpatch cells' counts by type) and the
  // matrix's checkpatch policy (gate/checkpatch_findings.h).
  const std::vector<results::CellResult>& cells;
  const std::optional<CheckpatchPolicy>& checkpatch;
};

// Where a failing cell's reproduce.sh finds the gate's inputs.
struct ReproduceContext {
  const ReproduceInputs& inputs;
  const ResolvedMatrix& matrix;
  std::size_t series_index = 0;  // the cell's series in inputs.series
  // Every series' name, by its index in inputs.series ("" when it never loaded).
  const std::vector<std::string>& series_names;
};

class Stage {
 public:
  virtual ~Stage() = default;
  // Its kind of cell (results/cell_id.h): the word and shape of its cells'
  // ids, declared and registered in the stage's own file.
  virtual results::CellKind kind() const = 0;
  // The line of the gate's time report its cells count in ("per-patch builds").
  virtual std::string time_bucket() const = 0;
  // Its cells in a gate over MATRIX, in the order they run, each with its
  // shard job (gate/plan.h); none when the matrix does not ask for it.
  virtual std::vector<PlannedCell> plan(const ResolvedMatrix& matrix) const = 0;
  virtual Placement placement() const { return Placement::k_per_series; }
  // The matrix key of its own that turns it on (`signoff:`), "" for none:
  // parse_matrix keeps such a line in Matrix::stage_lines, refusing it at
  // FILE:LINE when check_matrix_line does (WORDS: what follows the colon).
  virtual std::string matrix_key() const { return ""; }
  virtual void check_matrix_line(const std::vector<std::string>& words,
                                 const std::string& where) const;
  // The apply stage: every shard runs it (the stages after it need the
  // tip), and a series it does not pass stops there.
  virtual bool needed_by_the_rest() const { return false; }
  // What CELL's verdict depends on, beyond the runner's part; nullopt: the
  // cell is never taken from a resumed run.
  virtual std::optional<WorkInput> work(const PlannedCell& cell, const SeriesInput& input) const;
  // A per-series cell's outcome. An Error it throws is recorded by the
  // runner as an error cell (and an interruption stops the gate after).
  virtual results::CellResult run(const PlannedCell& cell, SeriesInput& input) const;
  // An after-series stage's cells, one per series it judges.
  virtual std::vector<results::CellResult> run_after(const PlannedCell& cell,
                                                     const AfterSeriesInput& input) const;
  // The kseries commands that redo a failing or erring CELL (reproduce.sh);
  // none: no reproduce.sh. By default: apply the series.
  virtual std::vector<std::vector<std::string>> reproduce(const PlannedCell& planned,
                                                          const results::CellResult& cell,
                                                          const ReproduceContext& context) const;
};

}  // namespace kseries::gate
