#pragma once
// The gate's coverage stage: after a revision's cells, the coverage cells
// (matrix cells on a target with the `coverage` feature, booted with the
// plugin's cover mode) merged over the series' changed lines at the tip
// (coverage/revision_coverage.h), and the matrix's coverage policy judged.
// One cell, "coverage": pass with the summary line; fail when the policy
// does; skip ("not applicable") when the series changes no line with code;
// error when no coverage cell left a kernel or a cover file to read.

#include <git2.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gate/matrix.h"
#include "git/store.h"
#include "kernel/kernel_build.h"
#include "results/gate_record.h"
#include "series/series.h"
#include "session/session.h"

namespace kseries::gate {

struct CoverageCellRun {
  std::string cell;               // "pmem-coverage memmap-equivalence"
  std::string target;             // "pmem-coverage"
  std::filesystem::path run_dir;  // where its boots left ROLE-N.cover
};

struct CoverageStageInput {
  std::string series_name;
  const Series* series = nullptr;
  git_oid tip{};
  const Matrix* matrix = nullptr;
  std::filesystem::path configs;
  std::filesystem::path out_dir;  // coverage.txt and coverage.json go here
  std::vector<CoverageCellRun> cells;
};

results::CellResult coverage_stage(const CoverageStageInput& input, git::Store& store,
                                   const kernel::KernelBuilds& builder, session::Status& status);

}  // namespace kseries::gate
