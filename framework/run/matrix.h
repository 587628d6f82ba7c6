#pragma once
// A gate matrix (kernel-configs/matrices/<name>.matrix): which target builds
// every patch of a series (bisectability) and which (target, case) cells run
// at the series' tip. Declarative, one item a line:
//   per-patch: pmem
//   cell: pmem memmap-timing [setups=fsdax-mem,devdax-mem] [rebinds=N]
//   revision-regression: max=PCT [METRIC]
// (the last: a revision slower than the revision before it by more than PCT
// percent, on METRIC or on any metric, fails; run/revision_regression.h)
// `#` starts a comment. Errors name file:line.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kseries::run {

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
  // `per-patch-timing: TARGET CASE`: every prefix of a series timed on its
  // own, each against the base and against the prefix before it.
  std::optional<MatrixCell> per_patch_timing;
  std::vector<MatrixCell> cells;
  std::optional<RevisionRegressionPolicy> revision_regression;
};

// NAME_OR_FILE: a name under MATRICES_DIR ("default" -> default.matrix), or
// a path to a matrix file.
Matrix load_matrix(const std::filesystem::path& matrices_dir, const std::string& name_or_file);

Matrix parse_matrix(const std::string& text, const std::filesystem::path& file);

}  // namespace kseries::run
