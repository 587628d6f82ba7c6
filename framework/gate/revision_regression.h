#pragma once
// A revision slower than the revision before it is a finding, not a
// footnote: every "slower" timing of the revision comparison (the newer
// revision's rebinds against the older one's) is named in the newer
// revision's verdict. With the matrix's `revision-regression: max=PCT
// [METRIC]` policy, one beyond PCT (on METRIC, or on any metric) fails that
// revision as the cell `revision-regression`; every other slower timing is
// a warning on its verdict line.

#include <string>
#include <vector>

#include "gate/matrix.h"
#include "gate/revision_compare.h"

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

// The cell a failing finding becomes: "revision-regression".
inline constexpr const char* k_revision_regression_cell = "revision-regression";

}  // namespace kseries::gate
