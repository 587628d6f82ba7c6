#pragma once
// `kseries merge`: the run directories of a sharded gate (`gate --shard I/N`)
// as one gate result, with the verdict a single-machine gate gives: cells in
// the gate's order, expectations applied after merging. Anything that would
// make the report silently smaller or mixed is an error (k_usage, exit 2): a
// missing shard, a shard given twice, a shard that did not finish, shards of
// different plans (matrix, series, expectations, shard count) or bases, a
// cell a shard was not assigned, a cell recorded twice, a series with no cell.

#include <filesystem>
#include <string>
#include <vector>

#include "gate/gate.h"
#include "gate/shard.h"

namespace kseries::gate {

struct MergeResult {
  Plan plan;
  std::string base;        // the commit
  std::string base_label;  // as the shards named it
  // Each series' patches as its apply cell's shard described them; paths
  // into a shard's run directory point where that directory is now.
  std::vector<results::SeriesRecord> series;
  GateResult gate;  // cells, verdicts, revisions, ok; time: the shards' stage sums
};

MergeResult merge_shards(const std::vector<std::filesystem::path>& run_dirs);

// RUN_DIR/gate.json of the merged gate, in the gate's own format (base,
// series with their verdicts, cells, revisions, end): what the text, JUnit,
// HTML and KCIDB reports of a gate read.
void write_merged_store(const MergeResult& merged, const std::filesystem::path& run_dir);

}  // namespace kseries::gate
