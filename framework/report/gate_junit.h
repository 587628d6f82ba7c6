#pragma once
// The gate's JUnit report, for `kseries gate` and `kseries merge` alike:
// one suite per series, one testcase per cell; an expected failure that
// held (the verdict's xfail) is a pass carrying the failure text.

#include <string>
#include <vector>

#include "report/junit.h"
#include "results/gate_record.h"

namespace kseries::report {

// INTERRUPTED, INTERRUPTION: the gate stopped (SIGINT/SIGTERM) and what was
// running; the last suite then says where, unless IN_A_CELL: the cell that
// was running holds it (an error cell).
std::vector<TestSuite> gate_junit_suites(const std::vector<results::SeriesVerdict>& verdicts,
                                         const std::vector<results::CellResult>& cells,
                                         bool interrupted, const std::string& interruption,
                                         bool in_a_cell);

}  // namespace kseries::report
