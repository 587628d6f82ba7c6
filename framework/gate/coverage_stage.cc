#include "gate/coverage_stage.h"

#include <algorithm>

#include "core/error.h"
#include "core/json_text.h"
#include "coverage/revision_coverage.h"
#include "gate/gate.h"
#include "kernel/target.h"
#include "results/coverage_record.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

struct CoverageCellRun {
  std::string cell;               // "pmem-coverage memmap-equivalence"
  std::string target;             // "pmem-coverage"
  std::filesystem::path run_dir;  // where its boots left ROLE-N.cover
};

struct CoverageStageInput {
  std::string series_name;
  const Series* series = nullptr;
  git_oid tip{};
  const Matrix* matrix = nullptr;
  std::filesystem::path configs;
  std::filesystem::path out_dir;  // coverage.txt and coverage.json go here
  std::vector<CoverageCellRun> cells;
};

// The candidate's cover files of one cell (candidate-1.cover, ...): the
// series' kernel, not the base's.
std::vector<fs::path> cover_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return files;
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind("candidate-", 0) == 0 &&
        entry.path().extension() == ".cover") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// One coverage cell judged on its own; nullopt (WHY says) when its kernel
// was never built.
std::optional<coverage::CellLines> judge_cell(const CoverageCellRun& run,
                                              const coverage::SeriesLines& lines,
                                              const CoverageStageInput& input,
                                              const kernel::KernelBuilds& builder,
                                              session::Status& status, std::string& why) {
  const auto target = kernel::load_target(input.configs, run.target);
  const auto kernel = builder.find(target, input.tip);
  if (!kernel) {
    why = run.cell + ": no " + run.target + " kernel of the tip (the cell did not build it)";
    return std::nullopt;
  }
  coverage::KernelInput kernel_input;
  kernel_input.vmlinux = kernel->vmlinux;
  kernel_input.config = kernel->config;
  kernel_input.arch = kernel->arch;
  kernel_input.source = builder.source_dir(target);
  kernel_input.configs = input.configs;
  for (const auto& c : input.matrix->cells) {
    kernel_input.matrix.insert(c.target);
  }
  if (input.matrix->per_patch_target) {
    kernel_input.matrix.insert(*input.matrix->per_patch_target);
  }
  if (input.matrix->per_patch_timing) {
    kernel_input.matrix.insert(input.matrix->per_patch_timing->target);
  }
  kernel_input.progress = [&](const std::string& text) {
    status.progress("coverage " + run.cell + ": " + text);
  };
  const auto files = cover_files(run.run_dir);
  kernel_input.cover = files;  // streamed by analyse_kernel
  status.progress("coverage " + run.cell + ": " + kernel->vmlinux.string() + ", " +
                  std::to_string(files.size()) + " cover file(s)");
  coverage::CellLines cell;
  cell.cell = run.cell;
  cell.target = run.target;
  cell.cover_files = files.size();
  cell.coverage = coverage::analyse_kernel(lines, kernel_input);
  return cell;
}

results::CellResult judge_coverage(const CoverageStageInput& input, git::Store& store,
                                   const kernel::KernelBuilds& builder, session::Status& status) {
  results::CellResult cell{input.series_name,
                           results::CellId::coverage().to_string(),
                           results::Outcome::k_error,
                           "",
                           "",
                           0,
                           {}};
  const auto lines =
      coverage::series_lines(*input.series, input.series->patches.size(), store, input.tip);
  std::vector<coverage::CellLines> judged;
  std::vector<std::string> missing;
  for (const auto& run : input.cells) {
    std::string why;
    if (auto one = judge_cell(run, lines, input, builder, status, why)) {
      judged.push_back(std::move(*one));
    } else {
      missing.push_back(why);
    }
  }
  const bool any_cover =
      std::any_of(judged.begin(), judged.end(), [](const auto& c) { return c.cover_files > 0; });
  for (const auto& why : missing) {
    cell.detail += why + "\n";
  }
  if (judged.empty() || !any_cover) {
    cell.summary = judged.empty()
                       ? "no coverage cell built its kernel: nothing to read"
                       : "no coverage cell left a cover file (did its boots power off?): "
                         "executed not known";
    return cell;
  }
  const auto merged = coverage::merge_cells(std::move(judged));
  fs::create_directories(input.out_dir);
  const fs::path text_file = input.out_dir / "coverage.txt";
  const fs::path json_file = input.out_dir / "coverage.json";
  write_file(text_file, coverage::revision_coverage_text(merged));
  auto record = coverage::revision_coverage_record(merged);
  record.series = input.series_name;
  record.tree = git::to_hex(input.tip);
  write_file(json_file, json_text(results::to_json(record)));
  cell.properties["run_dir"] = input.out_dir.string();
  cell.properties["coverage_json"] = json_file.string();
  cell.properties["coverage_text"] = text_file.string();
  cell.properties["coverage.changed"] = std::to_string(merged.summary.changed);
  cell.properties["coverage.executed"] = std::to_string(merged.summary.executed);
  std::string cells_text;
  for (const auto& line : coverage::cell_lines_text(merged)) {
    cells_text += line + "\n";
  }
  cell.properties["coverage.cells"] = cells_text;
  cell.summary = merged.summary_line;
  cell.detail += cells_text + "per line: " + text_file.string() + "\n";
  const auto failures = coverage::policy_failures(merged, input.matrix->coverage);
  if (merged.summary.changed == 0) {
    cell.status = results::Outcome::k_skip;
    cell.summary = "not applicable: the series changes no line with code of its own (" +
                   merged.summary_line + ")";
  } else if (!failures.empty()) {
    cell.status = results::Outcome::k_fail;
    std::string first = failures.front();
    cell.summary =
        first +
        (failures.size() > 1 ? " (and " + std::to_string(failures.size() - 1) + " more)" : "");
    for (const auto& failure : failures) {
      cell.detail = failure + "\n" + cell.detail;
    }
  } else {
    cell.status = results::Outcome::k_pass;
  }
  return cell;
}

class CoverageStage final : public Stage {
 public:
  results::CellKind kind() const override { return results::k_coverage_cell; }
  std::string time_bucket() const override { return "cells (build, boot, judge)"; }

  std::vector<PlannedCell> plan(const ResolvedMatrix& matrix) const override {
    if (matrix.coverage_targets.empty()) {
      return {};
    }
    return {{results::CellId::coverage(), nullptr, nullptr, "coverage"}};
  }

  // What the coverage cells were (their own work keys), the policy and the
  // matrix's targets (the reasons say "no target of this matrix"): another
  // of them judges again.
  std::optional<WorkInput> work(const PlannedCell&, const SeriesInput& input) const override {
    const ResolvedMatrix& matrix = input.request.matrix;
    std::string options;
    for (const auto& matrix_cell : matrix.coverage_cells()) {
      const std::string name =
          results::CellId::session(matrix_cell.target, matrix_cell.test_case).to_string();
      const auto it = input.work.find(name);
      options += name + "=" + (it == input.work.end() ? "" : it->second) + " ";
    }
    for (const auto& matrix_cell : matrix.cells) {
      options += "target=" + matrix_cell.target + " ";
    }
    options += "per-patch=" + matrix.per_patch_target.value_or("") + " ";
    if (matrix.coverage.min_percent) {
      options += "min=" + std::to_string(*matrix.coverage.min_percent) + " ";
    }
    for (const auto& range : matrix.coverage.require) {
      options += "require " + range.file + ":" + std::to_string(range.first) + "-" +
                 std::to_string(range.last) + " ";
    }
    return WorkInput{std::nullopt, std::nullopt, options};
  }

  results::CellResult run(const PlannedCell& planned, SeriesInput& input) const override {
    const ResolvedMatrix& matrix = input.request.matrix;
    CoverageStageInput coverage;
    coverage.series_name = input.name;
    coverage.series = &input.series();
    coverage.tip = input.tip();
    coverage.matrix = &matrix;
    coverage.configs = matrix.configs;
    coverage.out_dir = input.cell_dir(planned.name());
    const auto cells = matrix.coverage_cells();
    for (const auto& matrix_cell : cells) {
      const std::string name =
          results::CellId::session(matrix_cell.target, matrix_cell.test_case).to_string();
      fs::path dir = input.cell_dir(name);
      for (const auto& stored : input.store.cells()) {
        if (stored.series == input.name && stored.cell == name &&
            stored.properties.count("run_dir")) {
          dir = stored.properties.at("run_dir");
        }
      }
      coverage.cells.push_back({name, matrix_cell.target, dir});
    }
    input.status.progress("gate " + input.name + ": coverage of the changed lines over " +
                          std::to_string(cells.size()) + " coverage cell(s)");
    return judge_coverage(coverage, input.services.store, input.services.builder, input.status);
  }

  // Its coverage cells have reproducers of their own; it boots nothing.
  std::vector<std::vector<std::string>> reproduce(const PlannedCell&, const results::CellResult&,
                                                  const ReproduceContext&) const override {
    return {};
  }
};

}  // namespace

const Stage& coverage_stage() {
  static const CoverageStage stage;
  return stage;
}

}  // namespace kseries::gate
