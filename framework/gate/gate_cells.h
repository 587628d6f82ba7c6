#pragma once
// The verdict of each series of a gate, from its cells (results/
// gate_record.h) and its expectations, and the stages a gate's time is
// reported by: what a gate and a merge of its shards both compute.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gate/expectations.h"
#include "results/gate_record.h"

namespace kseries::gate {

// A good series (no expectations) is ok when no cell failed or erred; a
// known-bad one when every expected cell failed with its text and nothing
// else failed or erred. PLANNED, when given, are the cells the matrix has
// ("pmem memmap-types"): an expectation for a cell outside it is noted and
// not checked, but a known-bad revision none of whose expectations is in
// the matrix is not ok (nothing in this gate could catch it). Each cell's
// outcome goes to the verdict with its expectation applied: an expected
// failure that held is xfail, an expected failure that passed is xpass.
results::SeriesVerdict judge_series(const std::string& series,
                                    const std::vector<results::CellResult>& cells,
                                    const std::optional<Expectations>& expectations,
                                    const std::vector<std::string>* planned = nullptr);

// The stages a gate reports its time by, in order: "apply", "checkpatch",
// "per-patch builds", "per-patch timing", "cells (build, boot, judge)".
const std::vector<std::string>& gate_time_stages();
// The one of them CELL's time counts in.
std::string gate_time_stage(const results::CellId& cell);
// The time of CELLS by gate_time_stages() (a merge of shards: each
// stage's time summed over every shard's cells), SUFFIX after each name.
std::vector<std::pair<std::string, double>> gate_time_of(
    const std::vector<results::CellResult>& cells, const std::string& suffix);

}  // namespace kseries::gate
