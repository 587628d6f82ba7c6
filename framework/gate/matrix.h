#pragma once
// A gate matrix (kernel-configs/matrices/<name>.matrix): which target builds
// every patch of a series (bisectability) and which (target, case) cells run
// at the series' tip. Declarative, one item a line:
//   per-patch: pmem
//   cell: pmem memmap-timing [setups=fsdax-mem,devdax-mem] [rebinds=N]
//   revision-regression: max=PCT [METRIC]
//   coverage: min=PCT
//   coverage: require FILE:FIRST-LAST
//   checkpatch: max-new-errors=N
// (revision-regression: a revision slower than the revision before it by
// more than PCT percent, on METRIC or on any metric, fails;
// gate/revision_regression.h. coverage: the policy on the changed lines the
// coverage cells ran, coverage/revision_coverage.h; a coverage cell is a
// cell whose target has the `coverage` feature. checkpatch: a revision
// adding more than N checkpatch errors of its own against the revision
// before it fails, gate/checkpatch_findings.h.)
// `#` starts a comment. Errors name file:line.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "coverage/revision_coverage.h"
#include "gate/checkpatch_policy.h"

namespace kseries::gate {

struct MatrixCell {
  std::string target;
  std::string test_case;
  std::optional<std::vector<std::string>> setups;
  std::optional<int> rebinds;
  int line = 0;
};

struct RevisionRegressionPolicy {
  double max_percent = 0;
  std::optional<std::string> metric;
  int line = 0;
};

struct Matrix {
  std::string name;
  std::filesystem::path file;
  std::optional<std::string> per_patch_target;
  int per_patch_line = 0;  // its line in FILE, for errors
  // `per-patch-timing: TARGET CASE`: every prefix of a series timed on its
  // own, each against the base and against the prefix before it.
  std::optional<MatrixCell> per_patch_timing;
  std::vector<MatrixCell> cells;
  std::optional<RevisionRegressionPolicy> revision_regression;
  std::optional<CheckpatchPolicy> checkpatch;
  coverage::CoveragePolicy coverage;  // off when empty
  // The targets of coverage_cells(), once resolve_coverage_targets() ran: a
  // shard plan keeps their cells and the coverage stage on one shard.
  std::vector<std::string> coverage_targets;
  int coverage_line = 0;  // its first line, for errors
};

// NAME_OR_FILE: a name under MATRICES_DIR ("default" -> default.matrix), or
// a path to a matrix file.
Matrix load_matrix(const std::filesystem::path& matrices_dir, const std::string& name_or_file);

Matrix parse_matrix(const std::string& text, const std::filesystem::path& file);

// Validates MATRIX at load, before any cell runs, against the targets of
// CONFIGS_DIR and the cases of TESTCASES_DIR: throws Error(k_usage) naming
// the matrix file:line for a target or case that does not exist or does
// not load, a case that needs a feature no target has (a typo such as
// "needs: pmme" skipped the case everywhere and the gate passed), or cell
// setups the case does not know. (They used to fail one cell at a time, as
// if the series were at fault.)
// Without TESTCASES_DIR (kseries plan, which has no --testcases) only the
// targets are checked.
// The cells whose target has the `coverage` feature: booted with the
// plugin's cover mode, merged by the gate's coverage stage.
std::vector<MatrixCell> coverage_cells(const Matrix& matrix,
                                       const std::filesystem::path& configs_dir);

// Fills MATRIX.coverage_targets from CONFIGS_DIR.
void resolve_coverage_targets(Matrix& matrix, const std::filesystem::path& configs_dir);

void check_matrix(const Matrix& matrix, const std::filesystem::path& configs_dir,
                  const std::optional<std::filesystem::path>& testcases_dir);

}  // namespace kseries::gate
