#pragma once
// The gate's boot stages (gate/stage.h): a matrix cell (target x case) at a
// revision's tip, booted beside the base under one pairing rule
// (session/kernel_plan.h); and per-patch-timing, the base and every prefix
// booted on their own, each prefix against the base and the one before it
// (gate/per_patch_timing.h renders the table). An interruption (SIGINT) is
// thrown on, as every Error is: the runner records the cell.

#include <git2.h>

#include <filesystem>
#include <string>

#include "gate/gate.h"
#include "gate/matrix.h"
#include "gate/stage.h"
#include "git/apply.h"
#include "results/gate_record.h"
#include "series/series.h"
#include "session/session.h"
#include "session/session_runner.h"

namespace kseries::gate {

// A session of MATRIX_CELL's target and case in RUN_DIR, with the gate's
// accel, clock and boot-cache knobs; no kernels yet.
session::SessionRequest cell_session_request(const GateRequest& request,
                                             const MatrixCell& matrix_cell,
                                             const std::filesystem::path& run_dir);

// A matrix cell "TARGET CASE" at the series' tip, booted beside the base:
// its session's verdict (a guest that skipped every case is a skip, not a
// pass), each kernel's facts (results/facts.h), and the session's
// results.json beside its logs for the renderers. A job of its target's
// shard, or of the coverage job for a coverage target.
const Stage& session_cell_stage();

// The cell "per-patch-timing TARGET CASE" of the matrix's
// `per-patch-timing:` line: the base and every prefix booted on its own;
// an error when any prefix does not boot. A job of its target's shard.
const Stage& per_patch_timing_stage();

}  // namespace kseries::gate
