#pragma once
// The gate's one judge, called by a single gate and by the merge of its
// shards alike: each series' verdict from its cells, its expectations
// (gate/expectations.h) and the plan's cells; its warnings from the
// revision comparison under the matrix's revision-regression policy; the
// gate's outcome from the verdicts. Outcomes are folded once
// (results::fold, kunit's max_status): a cell's with its expectation
// applied (lit's setResult), an unmet expectation as a failure.

#include <optional>
#include <string>
#include <vector>

#include "gate/checkpatch_policy.h"
#include "gate/expectations.h"
#include "gate/matrix.h"
#include "gate/revision_compare.h"
#include "results/gate_record.h"

namespace kseries::gate {

// A good series (no expectations) passes when no cell failed or erred; a
// known-bad one is EXPECTED when every expected cell failed with its text
// and nothing else failed or erred. PLANNED are the cells of the gate's
// plan ("pmem memmap-types"): an expectation for a cell outside it is
// noted and not checked, but a known-bad revision none of whose
// expectations is in the plan fails (nothing in this gate could catch it).
// Each cell's outcome goes to the verdict with its expectation applied: an
// expected failure that held is xfail, an expected failure that passed is
// xpass.
results::SeriesVerdict judge_series(const std::string& series,
                                    const std::vector<results::CellResult>& cells,
                                    const std::optional<Expectations>& expectations,
                                    const std::vector<std::string>& planned);

struct JudgedSeries {
  std::string name;
  std::string identity;
  std::optional<Expectations> expectations;
};

struct GateJudgement {
  std::vector<results::SeriesVerdict> verdicts;  // in the order of the series
  results::Outcome outcome = results::Outcome::k_error;
};

// Every series judged over CELLS, each with the warnings of the revision
// comparison that do not fail it (gate/revision_regression.h, and the
// checkpatch errors it adds, gate/checkpatch_findings.h), and the gate's
// outcome.
GateJudgement judge_gate(const std::vector<std::string>& planned,
                         const std::vector<JudgedSeries>& series,
                         const std::vector<results::CellResult>& cells,
                         const std::vector<RevisionComparison>& revisions,
                         const std::optional<RevisionRegressionPolicy>& policy,
                         const std::optional<CheckpatchPolicy>& checkpatch);

// The gate's outcome: interrupted, else pass when no verdict is a failure
// (a known-bad revision caught is the gate passing), else the worst.
results::Outcome gate_outcome(const std::vector<results::SeriesVerdict>& verdicts,
                              bool interrupted);

}  // namespace kseries::gate
