#pragma once
// The gate: every stage of kseries composed for each series revision, one
// verdict at the end. The plan (gate/plan.h) lists the cells; per series
// the runner (gate/runner.h) takes them in order: apply (prerequisites
// first; a series that does not apply stops there) -> checkpatch per patch
// (reported) -> every patch built on the matrix's per-patch target
// (bisectability) -> each matrix cell (target x case) at the tip, timing
// against the base -> coverage -> per-patch timing; once every series is
// in, revision-regression. A cell that fails does not stop the others.
// The judge (gate/judge.h) gives the verdicts; known-bad revisions carry
// expectations (gate/expectations.h).

#include <git2.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gate/judge.h"
#include "gate/matrix.h"
#include "gate/reproducer.h"
#include "gate/revision_compare.h"
#include "gate/shard.h"
#include "git/store.h"
#include "kernel/kernel_build.h"
#include "memcost/profile.h"
#include "qemu/vm.h"
#include "session/session.h"
#include "sys/process.h"

namespace kseries::gate {

struct GateRequest {
  std::vector<std::filesystem::path> series;
  // Its targets and cases are read from the directories it was checked
  // against (matrix.configs, matrix.testcases).
  ResolvedMatrix matrix;
  git_oid base{};
  std::string base_label;
  std::filesystem::path run_dir;
  qemu::Accel accel = qemu::Accel::k_auto;
  std::string clock = "auto";
  // --clock memory: the profile and its options (session/session_runner.h).
  memcost::MemoryClockSettings memory;
  std::optional<std::filesystem::path> resume;  // an earlier run's gate.json
  bool reuse_base_boots = false;                // session/boot_cache.h
  bool reuse_boots = false;                     // every kernel's boots, not only the base's
  std::optional<Share> share;  // --shard I/N: only this share's cells run and are judged
  // What a failing cell's reproduce.sh gives kseries again (gate/reproducer.h).
  ReproduceInputs reproduce;
  // The kseries build that judges (its git describe), recorded in every cell
  // it judges as "judged_by": a resumed or merged gate says when its cells
  // were judged by more than one build, whose rules may differ.
  std::string judged_by;
};

struct GateServices {
  git::Store& store;
  kernel::KernelBuilds& builder;
  ProcessRunner& runner;
  std::filesystem::path workdir_root;
};

struct GateResult {
  std::vector<results::CellResult> cells;
  std::vector<results::SeriesVerdict> verdicts;
  // Consecutive revisions of one series, compared (also gate.json's "revisions").
  std::vector<RevisionComparison> revisions;
  // The gate's outcome (gate/judge.h): pass, fail, error or interrupted.
  results::Outcome outcome = results::Outcome::k_error;
  bool interrupted = false;             // SIGINT/SIGTERM: the cells so far, the rest not run
  std::string interruption;             // what was running: "interrupted while running make ..."
  bool interruption_in_a_cell = false;  // the cell that was running holds it (an error)
  std::size_t reused = 0;               // cells taken from --resume
  std::vector<std::pair<std::string, double>> time;  // stage -> seconds
  std::string plan_id;  // --shard: the plan's id (as in shard.json and `kseries plan`)

  bool ok() const { return !results::is_failure(outcome); }
};

GateResult run_gate(const GateRequest& request, GateServices& services, session::Status& status);

// The end of a gate's gate.json, as one gate and a merge of shards write it:
// the revision comparisons, the verdict, where the time went.
void finish_store(results::CellStore& store, const GateResult& result);

// The text report: per series its cells and verdict, the revision
// comparisons, then where the time went.
std::string render_gate(const GateResult& result);

// Which kseries builds judged CELLS ("judged_by"), most cells first: one line
// "judged by kseries X", or with more than one build (a gate resumed or
// merged across builds) every build with its cell count, and what that
// means; empty when no cell names its build.
std::string judged_by_line(const std::vector<results::CellResult>& cells);

}  // namespace kseries::gate
