#pragma once
// A revision slower than the revision before it is a finding, not a
// footnote: every "slower" timing of the revision comparison (the newer
// revision's rebinds against the older one's) is named in the newer
// revision's verdict. With the matrix's `revision-regression: max=PCT
// [METRIC]` policy, one beyond PCT (on METRIC, or on any metric) fails that
// revision as the cell `revision-regression` (a stage run once every
// series is in: in a single gate at its end, in a sharded gate by the
// merge); every other slower timing is a warning on its verdict line. A
// known-bad revision is never failed by it (it is expected to be worse):
// its findings are warnings.

#include <string>
#include <vector>

#include "gate/matrix.h"
#include "gate/revision_compare.h"
#include "gate/stage.h"

namespace kseries::gate {

struct RevisionFinding {
  std::string series;  // the newer revision ("demo/v2")
  std::string from;    // the older one
  std::string cell;
  std::string setup;
  std::string metric;
  double percent = 0;  // +16.1
  double low = 0;      // the interval, percent
  double high = 0;
  bool fails = false;  // beyond the policy's max
  // "toy demo fsdax-dev memmap_init_vns +16.1 % [+15.9 %, +16.3 %] slower than demo/v1"
  std::string text() const;
};

// The findings, the largest slowdown first.
std::vector<RevisionFinding> revision_findings(
    const std::vector<RevisionComparison>& comparisons,
    const std::optional<RevisionRegressionPolicy>& policy);

// Whether FINDING fails its revision's revision-regression cell (beyond
// the policy, and the revision is not known-bad); else it is a warning.
bool regression_fails(const RevisionFinding& finding, bool known_bad);

// The cell "revision-regression" of every series, when the matrix has the
// policy: fail beyond it, else pass (skip for a revision with none before
// it in the gate).
const Stage& revision_regression_stage();
// Its kind: "revision-regression".
extern const results::CellKind k_revision_regression_cell;

}  // namespace kseries::gate
