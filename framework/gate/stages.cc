#include "gate/stages.h"

#include <algorithm>
#include <map>

#include "gate/apply_stage.h"
#include "gate/checkpatch.h"
#include "gate/coverage_stage.h"
#include "gate/per_patch.h"
#include "gate/revision_regression.h"
#include "gate/session_cells.h"
#include "gate/signoff.h"

namespace kseries::gate {

const std::vector<const Stage*>& gate_stages() {
  // The order a series goes through them: the coverage stage reads the
  // coverage cells of the session stage; revision-regression runs once
  // every series is in.
  static const std::vector<const Stage*> stages = {
      &apply_stage(),
      &checkpatch_stage(),
      &signoff_stage(),
      &per_patch_stage(),
      &session_cell_stage(),
      &coverage_stage(),
      &per_patch_timing_stage(),
      &revision_regression_stage(),
  };
  return stages;
}

const Stage* stage_of(const results::CellId& cell) {
  for (const Stage* stage : gate_stages()) {
    if (stage->kind() == cell.kind) {
      return stage;
    }
  }
  return nullptr;
}

std::vector<std::string> gate_time_stages() {
  std::vector<std::string> buckets;
  for (const Stage* stage : gate_stages()) {
    if (std::find(buckets.begin(), buckets.end(), stage->time_bucket()) == buckets.end()) {
      buckets.push_back(stage->time_bucket());
    }
  }
  return buckets;
}

std::string gate_time_stage(const results::CellId& cell) {
  const Stage* stage = stage_of(cell);
  return stage ? stage->time_bucket() : session_cell_stage().time_bucket();
}

std::vector<std::pair<std::string, double>> gate_time_of(
    const std::vector<results::CellResult>& cells, const std::string& suffix) {
  std::map<std::string, double> time;
  for (const auto& cell : cells) {
    const auto id = cell.id();
    time[id ? gate_time_stage(*id) : session_cell_stage().time_bucket()] += cell.seconds;
  }
  std::vector<std::pair<std::string, double>> stages;
  for (const auto& stage : gate_time_stages()) {
    stages.emplace_back(stage + suffix, time[stage]);
  }
  return stages;
}

}  // namespace kseries::gate
