#pragma once
// The gate's coverage stage: after a revision's cells, the coverage cells
// (matrix cells on a target with the `coverage` feature, booted with the
// plugin's cover mode) merged over the series' changed lines at the tip
// (coverage/revision_coverage.h), and the matrix's coverage policy judged.
// One cell, "coverage": pass with the summary line; fail when the policy
// does; skip ("not applicable") when the series changes no line with code;
// error when no coverage cell left a kernel or a cover file to read.

#include "gate/stage.h"

namespace kseries::gate {

// The cell "coverage", after the session cells, when the matrix has
// coverage cells (in the coverage job with them: their cover files are on
// its shard).
const Stage& coverage_stage();

}  // namespace kseries::gate
