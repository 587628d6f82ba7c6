#pragma once
// A matrix's checkpatch policy (`checkpatch: max-new-errors=N`): a revision
// that adds more than N checkpatch errors of its own against the revision
// before it fails (gate/checkpatch_findings.h). Without one such errors
// are a warning on the revision's verdict line.

#include <string>
#include <vector>

namespace kseries::gate {

struct CheckpatchPolicy {
  int max_new_errors = 0;
  int line = 0;  // in the matrix file
};

// The words after "checkpatch:" of matrix line LINE (WHERE: "file:line");
// throws Error(k_usage) naming WHERE for anything but max-new-errors=N.
CheckpatchPolicy parse_checkpatch_policy(const std::vector<std::string>& words,
                                         const std::string& where, int line);

}  // namespace kseries::gate
