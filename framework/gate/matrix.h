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
//   KEY: ...   (a key a stage owns, gate/stage.h: `signoff: author`)
// (revision-regression: a revision slower than the revision before it by
// more than PCT percent, on METRIC or on any metric, fails;
// gate/revision_regression.h. coverage: the policy on the changed lines the
// coverage cells ran, coverage/revision_coverage.h; a coverage cell is a
// cell whose target has the `coverage` feature. checkpatch: a revision
// adding more than N checkpatch errors of its own against the revision
// before it fails, gate/checkpatch_findings.h.)
// `#` starts a comment. Errors name file:line.

#include <filesystem>
#include <map>
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

// A line of a key a stage owns (gate/stage.h, Stage::matrix_key): what
// follows its colon, word by word.
struct StageLine {
  std::vector<std::string> words;
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
  int coverage_line = 0;              // its first line, for errors
  // The lines of the keys the stages own (`signoff: author`), by key.
  std::map<std::string, StageLine> stage_lines;
};

// A matrix loaded and checked against the targets and cases it names, with
// what the gate derives from them: the only kind a gate, `kseries plan`
// and `kseries watch` take, so a typo is refused with the matrix's
// file:line before any series is touched.
struct ResolvedMatrix : Matrix {
  std::filesystem::path configs;    // the kernel-configs directory it was checked against
  std::filesystem::path testcases;  // "" when only the targets were checked (kseries plan)
  // The targets of its cells that have the `coverage` feature (booted with
  // the plugin's cover mode, merged by the gate's coverage stage; a shard
  // plan keeps their cells and that stage on one shard).
  std::vector<std::string> coverage_targets;

  bool is_coverage_cell(const MatrixCell& cell) const;
  std::vector<MatrixCell> coverage_cells() const;
};

// The matrix NAME_OR_FILE (a name under CONFIGS_DIR/matrices, "default" ->
// default.matrix, or a path to a matrix file), parsed and resolved
// (resolve_matrix). The one call a gate, `kseries plan` and `kseries watch`
// make.
ResolvedMatrix load_matrix(const std::filesystem::path& configs_dir,
                           const std::optional<std::filesystem::path>& testcases_dir,
                           const std::string& name_or_file);

// Throws Error(k_usage) naming file:line for a malformed line, an unknown
// key or option, a second `per-patch:`, `per-patch-timing:` or
// `revision-regression:` line, a cell given twice.
Matrix parse_matrix(const std::string& text, const std::filesystem::path& file);

// MATRIX checked against the targets of CONFIGS_DIR and the cases of
// TESTCASES_DIR, before any cell runs: throws Error(k_usage) naming the
// matrix file:line for a target or case that does not exist or does not
// load, a case that needs a feature no target has (a typo such as "needs:
// pmme" skipped the case everywhere and the gate passed), cell setups the
// case does not know, a coverage policy with no coverage cell. (They used
// to fail one cell at a time, as if the series were at fault.) Without
// TESTCASES_DIR (kseries plan, which has no --testcases) only the targets
// are checked.
ResolvedMatrix resolve_matrix(Matrix matrix, const std::filesystem::path& configs_dir,
                              const std::optional<std::filesystem::path>& testcases_dir);

}  // namespace kseries::gate
