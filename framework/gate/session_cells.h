#pragma once
// The gate's boot stages, as functions returning their CellResult: a matrix
// cell (target x case) at a revision's tip, booted beside the base under one
// pairing rule (session/kernel_plan.h); and per-patch-timing, the base and
// every prefix booted on their own, each prefix against the base and the one
// before it (gate/per_patch_timing.h renders the table). An interruption
// (SIGINT) is thrown on, as every Error is: the gate records the cell.

#include <git2.h>

#include <filesystem>
#include <string>

#include "gate/gate.h"
#include "gate/matrix.h"
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

struct SessionCellInput {
  std::string series_name;
  const MatrixCell* cell = nullptr;
  git_oid tip{};
  std::filesystem::path dir;  // the cell's directory (logs, results.json)
};

// The cell "TARGET CASE": its session's verdict (a guest that skipped every
// case is a skip, not a pass), each kernel's facts (results/facts.h), and
// the session's results.json beside its logs for the renderers.
results::CellResult session_cell_stage(const GateRequest& request, const SessionCellInput& input,
                                       GateServices& services, session::Status& status);

struct PerPatchTimingInput {
  std::string series_name;
  const Series* series = nullptr;
  const git::ApplyResult* applied = nullptr;  // the chain applied; its last patches are SERIES'
  std::filesystem::path dir;                  // base/, 1/, 2/ ... go here
};

// The cell "per-patch-timing TARGET CASE" of the matrix's per-patch-timing
// spec; an error when any prefix does not boot.
results::CellResult per_patch_timing_stage(const GateRequest& request,
                                           const PerPatchTimingInput& input, GateServices& services,
                                           session::Status& status);

}  // namespace kseries::gate
