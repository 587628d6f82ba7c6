#pragma once
// The gate's plan: the one list of the cells a gate over a matrix has, made
// once from the resolved matrix by asking each stage (gate/stages.h) which
// cells it has there, in the order a series goes through them. The runner
// runs it, `kseries plan` and the shards partition it (gate/shard.h), the
// merge checks the shards against it, the judge takes it as "planned" and
// the reproducer finds a cell's matrix line in it (ninja's Plan: what we
// intend to build, read by the builder and its tests alike).

#include <string>
#include <string_view>
#include <vector>

#include "gate/matrix.h"
#include "results/cell_id.h"

namespace kseries::gate {

class Stage;

// Where a cell runs: with its series (on the shard that has its job), or
// once every series' cells are in, at the end of a single gate or in the
// merge of the shards (a judgement across revisions).
enum class Placement { k_per_series, k_after_series };

struct PlannedCell {
  results::CellId id;
  const Stage* stage = nullptr;
  // The matrix line of a session or per-patch-timing cell, else null.
  const MatrixCell* matrix_cell = nullptr;
  // What one shard takes whole: "series" (apply, checkpatch), "target pmem"
  // (every build and boot of one target, so no two shards build one
  // kernel), "coverage" (the coverage cells and the stage that merges
  // them); "" for an after-series cell, which no shard runs.
  std::string job;
  std::string name() const { return id.to_string(); }
};

struct GatePlan {
  std::vector<PlannedCell> cells;
  std::vector<std::string> names() const;  // the cell words, in order
  const PlannedCell* find(std::string_view name) const;
};

// The plan of MATRIX: each stage's cells, in the stages' order. It points
// into MATRIX, which must outlive it.
GatePlan make_gate_plan(const ResolvedMatrix& matrix);

}  // namespace kseries::gate
