#pragma once
// The registration of the gate's stages (gate/stage.h): the one list, in
// the order a series goes through them. The plan, the time report and the
// merge all read it.

#include <string>
#include <utility>
#include <vector>

#include "gate/stage.h"
#include "results/cell_id.h"
#include "results/gate_record.h"

namespace kseries::gate {

const std::vector<const Stage*>& gate_stages();

// The stage whose cells have this id's stage; null for none.
const Stage* stage_of(const results::CellId& cell);

// The lines of the gate's time report, in the stages' order: "apply",
// "checkpatch", "per-patch builds", "cells (build, boot, judge)", ...
std::vector<std::string> gate_time_stages();
// The line CELL's time counts in.
std::string gate_time_stage(const results::CellId& cell);
// The time of CELLS by gate_time_stages() (a merge of shards: each line's
// time summed over every shard's cells), SUFFIX after each name.
std::vector<std::pair<std::string, double>> gate_time_of(
    const std::vector<results::CellResult>& cells, const std::string& suffix);

}  // namespace kseries::gate
