#include "gate/matrix.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "gate/stage.h"
#include "gate/stages.h"
#include "kernel/target.h"
#include "session/case_plan.h"
#include "session/oracle.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  for (const char c : text) {
    if (c == ' ' || c == '\t') {
      if (!current.empty()) {
        out.push_back(std::move(current));
        current.clear();
      }
    } else {
      current += c;
    }
  }
  if (!current.empty()) {
    out.push_back(std::move(current));
  }
  return out;
}

MatrixCell parse_cell(const std::vector<std::string>& w, const std::string& where, int line) {
  if (w.size() < 2) {
    throw usage_error(where + ": a cell is 'cell: TARGET CASE [setups=a,b] [rebinds=N]'");
  }
  MatrixCell cell{w[0], w[1], std::nullopt, std::nullopt, line};
  for (std::size_t i = 2; i < w.size(); ++i) {
    const auto eq = w[i].find('=');
    const std::string key = w[i].substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : w[i].substr(eq + 1);
    if (key == "setups" && !value.empty()) {
      cell.setups = session::split_list(value);
    } else if (key == "rebinds") {
      int n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || n < 1 || n > 10000) {
        throw usage_error(where + ": rebinds must be a number from 1 to 10000, not '" + value +
                          "'");
      }
      cell.rebinds = n;
    } else {
      throw usage_error(where + ": unknown cell option '" + w[i] + "' (setups=, rebinds=)");
    }
  }
  return cell;
}

RevisionRegressionPolicy parse_revision_regression(const std::vector<std::string>& w,
                                                   const std::string& where, int line) {
  const std::string usage = where + ": 'revision-regression: max=PCT [METRIC]'";
  if (w.empty() || w.size() > 2 || w[0].rfind("max=", 0) != 0) {
    throw usage_error(usage);
  }
  std::string value = w[0].substr(4);
  if (!value.empty() && value.back() == '%') {
    value.pop_back();
  }
  double percent = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), percent);
  if (ec != std::errc() || end != value.data() + value.size() || !(percent >= 0) ||
      percent > 1000) {
    throw usage_error(usage + ": max must be a percentage from 0 to 1000, not '" + value + "'");
  }
  RevisionRegressionPolicy policy{percent, std::nullopt, line};
  if (w.size() == 2) {
    policy.metric = w[1];
  }
  return policy;
}

// The stage whose own matrix key KEY is (`signoff`), or null.
const Stage* stage_with_key(const std::string& key) {
  for (const Stage* stage : gate_stages()) {
    if (!stage->matrix_key().empty() && stage->matrix_key() == key) {
      return stage;
    }
  }
  return nullptr;
}

}  // namespace

Matrix parse_matrix(const std::string& text, const fs::path& file) {
  Matrix matrix;
  matrix.file = file;
  matrix.name = file.stem().string();
  refuse_byte_order_mark(text, file.string());
  int line_no = 0;
  for (const auto raw : split_lines(text)) {
    ++line_no;
    std::string_view line = raw.substr(0, raw.find('#'));
    line = trim(line);
    if (line.empty()) {
      continue;
    }
    const std::string where = file.string() + ":" + std::to_string(line_no);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      throw usage_error(where + ": expected 'per-patch: TARGET' or 'cell: TARGET CASE ...'");
    }
    const std::string key(trim(line.substr(0, colon)));
    const auto w = words(line.substr(colon + 1));
    // One of each: a second line silently replaced the first.
    const auto once = [&](bool given, int at) {
      if (given) {
        throw usage_error(where + ": '" + key + ":' is already at line " + std::to_string(at) +
                          " (one a matrix)");
      }
    };
    if (key == "per-patch") {
      if (w.size() != 1) {
        throw usage_error(where + ": 'per-patch:' names one target");
      }
      once(matrix.per_patch_target.has_value(), matrix.per_patch_line);
      matrix.per_patch_target = w[0];
      matrix.per_patch_line = line_no;
    } else if (key == "per-patch-timing") {
      once(matrix.per_patch_timing.has_value(),
           matrix.per_patch_timing ? matrix.per_patch_timing->line : 0);
      matrix.per_patch_timing = parse_cell(w, where, line_no);
    } else if (key == "cell") {
      MatrixCell cell = parse_cell(w, where, line_no);
      // A cell is named "TARGET CASE" everywhere (reports, --resume): a
      // second one would run twice under one name.
      for (const auto& other : matrix.cells) {
        if (other.target == cell.target && other.test_case == cell.test_case) {
          throw usage_error(where + ": cell '" + cell.target + " " + cell.test_case +
                            "' is already at line " + std::to_string(other.line));
        }
      }
      matrix.cells.push_back(std::move(cell));
    } else if (key == "revision-regression") {
      once(matrix.revision_regression.has_value(),
           matrix.revision_regression ? matrix.revision_regression->line : 0);
      matrix.revision_regression = parse_revision_regression(w, where, line_no);
    } else if (key == "checkpatch") {
      once(matrix.checkpatch.has_value(), matrix.checkpatch ? matrix.checkpatch->line : 0);
      matrix.checkpatch = parse_checkpatch_policy(w, where, line_no);
    } else if (key == "coverage") {
      coverage::add_policy_line(matrix.coverage, std::string(line.substr(colon + 1)), where);
      matrix.coverage_line = matrix.coverage_line ? matrix.coverage_line : line_no;
    } else if (const Stage* stage = stage_with_key(key)) {
      const auto given = matrix.stage_lines.find(key);
      once(given != matrix.stage_lines.end(),
           given != matrix.stage_lines.end() ? given->second.line : 0);
      stage->check_matrix_line(w, where);
      matrix.stage_lines[key] = {w, line_no};
    } else {
      std::string keys =
          "per-patch, per-patch-timing, cell, revision-regression, coverage, checkpatch";
      for (const Stage* owner : gate_stages()) {
        keys += owner->matrix_key().empty() ? "" : ", " + owner->matrix_key();
      }
      throw usage_error(where + ": unknown key '" + key + "' (" + keys + ")");
    }
  }
  if (matrix.cells.empty() && !matrix.per_patch_target && !matrix.per_patch_timing) {
    throw usage_error(file.string() + ": the matrix has no cell and no per-patch target");
  }
  return matrix;
}

namespace {

// The targets of MATRIX's cells that have the `coverage` feature.
std::vector<std::string> coverage_targets(const Matrix& matrix, const fs::path& configs_dir) {
  std::vector<std::string> targets;
  for (const auto& cell : matrix.cells) {
    const auto target = kernel::load_target(configs_dir, cell.target);
    if (target.has_feature("coverage") &&
        std::find(targets.begin(), targets.end(), cell.target) == targets.end()) {
      targets.push_back(cell.target);
    }
  }
  return targets;
}

}  // namespace

bool ResolvedMatrix::is_coverage_cell(const MatrixCell& cell) const {
  return std::find(coverage_targets.begin(), coverage_targets.end(), cell.target) !=
         coverage_targets.end();
}

std::vector<MatrixCell> ResolvedMatrix::coverage_cells() const {
  std::vector<MatrixCell> out;
  for (const auto& cell : cells) {
    if (is_coverage_cell(cell)) {
      out.push_back(cell);
    }
  }
  return out;
}

namespace {

void check_matrix(const Matrix& matrix, const fs::path& configs_dir,
                  const std::optional<fs::path>& testcases_dir) {
  std::set<std::string> features;
  for (const auto& name : kernel::list_targets(configs_dir)) {
    try {
      const auto target = kernel::load_target(configs_dir, name);
      features.insert(target.features.begin(), target.features.end());
    } catch (const Error&) {
      // A broken target the matrix does not use is not this matrix' error;
      // one it uses is reported below.
    }
  }
  const auto at = [&](int line) { return matrix.file.string() + ":" + std::to_string(line); };
  const auto target_loads = [&](const std::string& name, int line) {
    try {
      kernel::load_target(configs_dir, name);
    } catch (const Error& e) {
      throw usage_error(at(line) + ": " + e.what());
    }
  };
  if (matrix.per_patch_target) {
    target_loads(*matrix.per_patch_target, matrix.per_patch_line);
  }
  // The per-patch-timing cell is a cell like the others: its target and
  // case must load before the first series is applied.
  std::vector<MatrixCell> cells = matrix.cells;
  if (matrix.per_patch_timing) {
    cells.push_back(*matrix.per_patch_timing);
  }
  for (const auto& cell : cells) {
    target_loads(cell.target, cell.line);
    if (!testcases_dir) {
      continue;
    }
    cases::CaseDef test_case;
    try {
      test_case = cases::load_case(*testcases_dir, cell.test_case);
    } catch (const Error& e) {
      throw usage_error(at(cell.line) + ": " + e.what());
    }
    for (const auto& need : test_case.needs) {
      if (!features.count(need)) {
        throw usage_error(at(cell.line) + ": case " + cell.test_case + " needs '" + need +
                          "', a feature no target of " + configs_dir.string() + " has (" +
                          (test_case.dir / "case.conf").string() + ")");
      }
    }
    try {
      session::find_oracle(test_case.oracle);
    } catch (const Error& e) {
      throw usage_error(at(cell.line) + ": case " + cell.test_case + " (" +
                        (test_case.dir / "case.conf").string() + "): " + e.what());
    }
    if (cell.rebinds && !test_case.rebinds) {
      throw usage_error(at(cell.line) + ": case " + cell.test_case + " takes no rebinds= (its " +
                        (test_case.dir / "case.conf").string() + " has no 'rebinds:')");
    }
    const auto known = session::known_setups(test_case);

    if (cell.setups && !known.empty()) {
      for (const auto& setup : *cell.setups) {
        if (!session::is_known_setup(test_case, setup)) {
          std::string names;
          for (const auto& name : known) {
            names += (names.empty() ? "" : ", ") + name;
          }
          throw usage_error(at(cell.line) + ": case " + cell.test_case + " has no setup '" + setup +
                            "' (its setups: " + names + ")");
        }
      }
    }
  }
  if (!matrix.coverage.empty() && coverage_targets(matrix, configs_dir).empty()) {
    throw usage_error(at(matrix.coverage_line) +
                      ": a coverage policy, but no cell of this matrix has a coverage target "
                      "(one with the 'coverage' feature, e.g. pmem-coverage): it would check "
                      "nothing");
  }
}

}  // namespace

ResolvedMatrix resolve_matrix(Matrix matrix, const fs::path& configs_dir,
                              const std::optional<fs::path>& testcases_dir) {
  check_matrix(matrix, configs_dir, testcases_dir);
  ResolvedMatrix resolved;
  static_cast<Matrix&>(resolved) = std::move(matrix);
  resolved.configs = configs_dir;
  resolved.testcases = testcases_dir.value_or(fs::path());
  resolved.coverage_targets = coverage_targets(resolved, configs_dir);
  return resolved;
}

ResolvedMatrix load_matrix(const fs::path& configs_dir,
                           const std::optional<fs::path>& testcases_dir,
                           const std::string& name_or_file) {
  // A bare name is a bundled matrix first: "--matrix full" must not pick
  // up a file named ./full in whatever directory kseries runs in.
  const fs::path matrices_dir = configs_dir / "matrices";
  fs::path file = name_or_file;
  const fs::path bundled = matrices_dir / (name_or_file + ".matrix");
  if (name_or_file.find('/') == std::string::npos &&
      (fs::is_regular_file(bundled) || !fs::exists(file))) {
    file = bundled;
  }
  if (!fs::is_regular_file(file)) {
    throw usage_error("no matrix '" + name_or_file + "' (" + file.string() + " does not exist)");
  }
  return resolve_matrix(parse_matrix(read_file(file), file), configs_dir, testcases_dir);
}

}  // namespace kseries::gate
