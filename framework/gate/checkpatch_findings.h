#pragma once
// Checkpatch errors a revision adds against the revision before it (v6 ->
// v10), as a reviewer reads them: which types, in which patches, and how
// many the port itself added (errors in patches posted upstream as they
// are, the `upstream` file of gate/checkpatch.h, are the author's). Under
// the matrix's `checkpatch: max-new-errors=N` a revision whose own added
// errors exceed N fails (as the cell revision-regression); every other
// finding is a warning on its verdict line.

#include <optional>
#include <string>
#include <vector>

#include "gate/checkpatch_policy.h"
#include "gate/matrix.h"
#include "gate/revision_compare.h"
#include "results/gate_record.h"

namespace kseries::gate {

struct CheckpatchFinding {
  std::string series;  // the newer revision
  std::string from;    // the older one
  struct Added {
    std::string type;     // "TRAILING_STATEMENTS"
    int count = 0;        // errors of the type beyond the older revision's
    int upstream = 0;     // of those, in patches posted upstream as they are
    std::string patches;  // the newer revision's patches with the type: "8/8"
  };
  std::vector<Added> added;
  int port_errors = 0;  // added errors not upstream's
  bool fails = false;   // beyond the policy
  // "checkpatch: +9 error(s) against demo/v1: TRAILING_STATEMENTS +9 (8/8,
  // 9 upstream's as posted); 0 the port's"
  std::string text() const;
};

// One finding per comparison whose newer revision has more errors of some
// type than the older one, from the two revisions' checkpatch cells in
// CELLS (a cell without per-type counts, from an older kseries, gives none).
std::vector<CheckpatchFinding> checkpatch_findings(
    const std::vector<RevisionComparison>& comparisons,
    const std::vector<results::CellResult>& cells, const std::optional<CheckpatchPolicy>& policy);

// The failing findings' texts (TEXTS, of one revision) into CELL, its
// revision-regression cell: the summary (the first, with the checkpatch
// POLICY of MATRIX_FILE), one detail line each, the policy's figure and
// line. Nothing when TEXTS is empty or there is no policy.
void add_checkpatch_failures(const std::vector<std::string>& texts,
                             const std::optional<CheckpatchPolicy>& policy,
                             const std::string& matrix_file, results::CellResult& cell);

}  // namespace kseries::gate
