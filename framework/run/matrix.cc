#include "run/matrix.h"

#include <charconv>

#include "core/error.h"
#include "core/text.h"
#include "run/case_plan.h"
#include "sys/files.h"

namespace kseries::run {

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
      cell.setups = split_list(value);
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

}  // namespace

Matrix parse_matrix(const std::string& text, const fs::path& file) {
  Matrix matrix;
  matrix.file = file;
  matrix.name = file.stem().string();
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
    if (key == "per-patch") {
      if (w.size() != 1) {
        throw usage_error(where + ": 'per-patch:' names one target");
      }
      matrix.per_patch_target = w[0];
    } else if (key == "per-patch-timing") {
      matrix.per_patch_timing = parse_cell(w, where, line_no);
    } else if (key == "cell") {
      matrix.cells.push_back(parse_cell(w, where, line_no));
    } else if (key == "revision-regression") {
      matrix.revision_regression = parse_revision_regression(w, where, line_no);
    } else {
      throw usage_error(where + ": unknown key '" + key +
                        "' (per-patch, per-patch-timing, cell, revision-regression)");
    }
  }
  if (matrix.cells.empty() && !matrix.per_patch_target && !matrix.per_patch_timing) {
    throw usage_error(file.string() + ": the matrix has no cell and no per-patch target");
  }
  return matrix;
}

Matrix load_matrix(const fs::path& matrices_dir, const std::string& name_or_file) {
  fs::path file = name_or_file;
  if (name_or_file.find('/') == std::string::npos && !fs::exists(file)) {
    file = matrices_dir / (name_or_file + ".matrix");
  }
  if (!fs::is_regular_file(file)) {
    throw usage_error("no matrix '" + name_or_file + "' (" + file.string() + " does not exist)");
  }
  return parse_matrix(read_file(file), file);
}

}  // namespace kseries::run
