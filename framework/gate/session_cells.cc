#include "gate/session_cells.h"

#include <chrono>

#include "cases/case_def.h"
#include "core/error.h"
#include "gate/per_patch_timing.h"
#include "gate/reproducer.h"
#include "kernel/target.h"
#include "report/junit.h"
#include "results/facts.h"
#include "results/session_record.h"
#include "session/kernel_plan.h"
#include "session/new_path.h"
#include "session/oracle.h"
#include "session/session_runner.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

void fill(results::CellResult& cell, const session::SessionOutcome& outcome) {
  switch (outcome.end) {
    case session::SessionEnd::k_skipped:
      cell.status = results::Outcome::k_skip;
      cell.summary = outcome.why;
      return;
    case session::SessionEnd::k_not_built:
      cell.status = results::Outcome::k_fail;
      cell.summary = outcome.why.substr(0, outcome.why.find('\n'));
      cell.detail = outcome.why;
      return;
    case session::SessionEnd::k_booted:
      break;
  }
  const auto& report = outcome.report;
  cell.status = report.failed ? results::Outcome::k_fail : results::Outcome::k_pass;
  for (const auto& test : report.suite.cases) {
    if (test.status == report::CaseStatus::k_failed) {
      const std::string line = test.classname + " " + test.name + ": " + test.message;
      cell.detail += line + "\n" + test.detail.substr(0, 2000) + "\n";
      if (cell.summary.empty()) {
        cell.summary = line;
      }
    }
  }
  if (cell.status == results::Outcome::k_pass) {
    // Booted, but the guest skipped everything it was asked: not a pass.
    if (report::only_boots_ran(report.suite)) {
      cell.status = results::Outcome::k_skip;
    }
    cell.summary = report::tally_cases(report.suite);
  }
  cell.detail += report.text;
}

// The clock (and the memory clock's profile) a booted session's timings
// were taken with, for the gate's JUnit and gate.json.
void add_clock_facts(results::CellResult& cell, const results::SessionRecord& session) {
  for (const auto& [fact, value] :
       {std::pair{results::SessionFact::k_clock, &session.clock},
        std::pair{results::SessionFact::k_memory_model, &session.memory_model}}) {
    if (!value->empty()) {
      results::set_session_fact(cell.properties, fact, *value);
    }
  }
}

void add_kernel_facts(results::CellResult& cell, const session::SessionOutcome& outcome) {
  for (const auto& kernel : outcome.kernels) {
    if (kernel.build.key.empty()) {
      continue;
    }
    const std::string role = session::role_name(kernel.role);
    results::set_kernel_fact(cell.properties, role, results::KernelFact::k_kernel,
                             kernel.build.key);
    results::set_kernel_fact(cell.properties, role, results::KernelFact::k_seconds,
                             std::to_string(kernel.build.seconds));
    results::set_kernel_fact(cell.properties, role, results::KernelFact::k_compiler,
                             kernel.build.compiler);
    results::set_kernel_fact(cell.properties, role, results::KernelFact::k_arch, kernel.build.arch);
    results::set_kernel_fact(cell.properties, role, results::KernelFact::k_warnings,
                             std::to_string(kernel.build.warnings.size()));
    results::set_kernel_fact(cell.properties, role, results::KernelFact::k_commit,
                             git::to_hex(kernel.commit));
  }
}

}  // namespace

session::SessionRequest cell_session_request(const GateRequest& gate, const MatrixCell& matrix_cell,
                                             const fs::path& run_dir) {
  session::SessionRequest request;
  request.target = kernel::load_target(gate.matrix.configs, matrix_cell.target);
  request.test_case = cases::load_case(gate.matrix.testcases, matrix_cell.test_case);
  request.testcases = gate.matrix.testcases;
  request.case_options.setups = matrix_cell.setups;
  request.case_options.rebinds = matrix_cell.rebinds;
  request.accel = gate.accel;
  request.clock = gate.clock;
  request.memory = gate.memory;
  request.reuse_baseline_boots = gate.reuse_base_boots;
  request.reuse_every_boot = gate.reuse_boots;
  request.run_dir = run_dir;
  fs::create_directories(run_dir);
  return request;
}

namespace {

// A cell's options for its work key.
std::string cell_options(const MatrixCell& cell) {
  std::string options = "rebinds=" + std::to_string(cell.rebinds.value_or(30));
  for (const auto& setup : cell.setups.value_or(std::vector<std::string>{})) {
    options += " setup=" + setup;
  }
  return options;
}

class SessionCellStage final : public Stage {
 public:
  results::CellKind kind() const override { return results::k_session_cell; }
  std::string time_bucket() const override { return "cells (build, boot, judge)"; }

  std::vector<PlannedCell> plan(const ResolvedMatrix& matrix) const override {
    std::vector<PlannedCell> cells;
    for (const auto& cell : matrix.cells) {
      // The coverage cells and the stage that reads their cover files: one job.
      cells.push_back({results::CellId::session(cell.target, cell.test_case), nullptr, &cell,
                       matrix.is_coverage_cell(cell) ? "coverage" : "target " + cell.target});
    }
    return cells;
  }

  std::optional<WorkInput> work(const PlannedCell& planned, const SeriesInput&) const override {
    return WorkInput{planned.matrix_cell->target, planned.matrix_cell->test_case,
                     cell_options(*planned.matrix_cell)};
  }

  results::CellResult run(const PlannedCell& planned, SeriesInput& input) const override {
    const GateRequest& gate = input.request;
    const MatrixCell& matrix_cell = *planned.matrix_cell;
    const fs::path dir = input.cell_dir(planned.name());
    results::CellResult cell{input.name,
                             planned.name(),
                             results::Outcome::k_error,
                             "",
                             "",
                             0,
                             {{"run_dir", dir.string()}}};
    auto request = cell_session_request(gate, matrix_cell, dir);
    // Timing cells are judged against the base (session/kernel_plan.h).
    const session::Pairing pairing{.oracle = session::find_oracle(request.test_case.oracle),
                                   .judge_timing = true};
    for (const session::KernelRole role : session::session_roles(pairing)) {
      const bool candidate = role == session::KernelRole::k_candidate;
      request.kernels.push_back({.role = role,
                                 .name = candidate ? input.name : "base",
                                 .commit = candidate ? input.tip() : gate.base});
    }
    // The tip of a series: it claims a new path where it changes the case's
    // (session/new_path.h).
    request.candidate_changes =
        session::changed_path(input.services.store, gate.base, input.tip(), request.test_case.path);
    session::Services session_services{input.services.builder, input.services.runner,
                                       input.services.workdir_root};
    auto outcome = session::run_session(std::move(request), session_services, input.status);
    fill(cell, outcome);
    // The session's own results beside its logs, as `kseries boot` leaves
    // them: the HTML and KCIDB renderers read the samples from there.
    if (outcome.end == session::SessionEnd::k_booted) {
      write_file(dir / "results.json",
                 results::to_json(outcome.report.record)
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                     "\n");
    }
    add_kernel_facts(cell, outcome);
    if (outcome.end == session::SessionEnd::k_booted) {
      add_clock_facts(cell, outcome.report.record);
    }
    return cell;
  }

  // A build and a boot of the cell's target and case (`--compare-base`
  // for a timing case: one no host oracle judges).
  std::vector<std::vector<std::string>> reproduce(const PlannedCell& planned,
                                                  const results::CellResult& cell,
                                                  const ReproduceContext& context) const override {
    bool timing = false;
    try {
      const auto test_case =
          cases::load_case(context.matrix.testcases, planned.matrix_cell->test_case);
      timing = session::find_oracle(test_case.oracle) == nullptr;
    } catch (const Error&) {
      timing = false;  // the case did not load: the cell says so
    }
    return reproduce_commands(context.inputs, context.series_index, cell.cell, planned.matrix_cell,
                              timing);
  }
};

// "per-patch-timing TARGET CASE".
const results::CellKind k_per_patch_timing_cell =
    results::register_cell_kind({"per-patch-timing", results::CellShape::k_word_target_case});

class PerPatchTimingStage final : public Stage {
 public:
  results::CellKind kind() const override { return k_per_patch_timing_cell; }
  std::string time_bucket() const override { return "per-patch timing"; }

  std::vector<PlannedCell> plan(const ResolvedMatrix& matrix) const override {
    if (!matrix.per_patch_timing) {
      return {};
    }
    const MatrixCell& spec = *matrix.per_patch_timing;
    return {{results::CellId{k_per_patch_timing_cell, spec.target, spec.test_case}, nullptr, &spec,
             "target " + spec.target}};
  }

  std::optional<WorkInput> work(const PlannedCell& planned, const SeriesInput&) const override {
    return WorkInput{planned.matrix_cell->target, planned.matrix_cell->test_case,
                     cell_options(*planned.matrix_cell)};
  }

  results::CellResult run(const PlannedCell& planned, SeriesInput& input) const override {
    const GateRequest& gate = input.request;
    const MatrixCell& spec = *planned.matrix_cell;
    const Series& series = input.series();
    const git::ApplyResult& applied = *input.applied;
    const fs::path dir = input.cell_dir(planned.name());
    results::CellResult cell{input.name, planned.name(), results::Outcome::k_pass, "", "", 0, {}};
    std::vector<PrefixTiming> prefixes;
    const std::size_t first = applied.outcomes.size() - series.patches.size();
    for (std::size_t i = first; i <= applied.outcomes.size(); ++i) {
      const bool base = i == first;
      const auto& outcome = applied.outcomes[base ? i : i - 1];
      const std::string label = base ? "base"
                                     : std::to_string(outcome.index + 1) + "/" +
                                           std::to_string(outcome.total) + " " + outcome.subject;
      input.status.progress("gate " + input.name + ": per-patch timing: " + label);
      auto request = cell_session_request(
          gate, spec, dir / (base ? "base" : std::to_string(outcome.index + 1)));
      request.kernels.push_back(
          {base ? session::KernelRole::k_base : session::KernelRole::k_candidate,
           label,
           base ? (first == 0 ? gate.base : applied.outcomes[first - 1].commit) : outcome.commit,
           {},
           {},
           0,
           {}});
      session::Services session_services{input.services.builder, input.services.runner,
                                         input.services.workdir_root};
      auto result = session::run_session(std::move(request), session_services, input.status);
      if (result.end != session::SessionEnd::k_booted || result.report.failed) {
        cell.status = results::Outcome::k_error;
        cell.summary = label + ": " +
                       (result.end == session::SessionEnd::k_booted
                            ? "the boot failed (" + dir.string() + ")"
                            : result.why.substr(0, result.why.find('\n')));
        return cell;
      }
      add_clock_facts(cell, result.report.record);
      prefixes.push_back({label, std::move(result.kernels.front().timing)});
    }
    const auto table = render_per_patch_timing(prefixes);
    cell.detail = table.text;
    std::string tip;
    for (const auto& change : table.tip_changes) {
      tip += (tip.empty() ? "" : ", ") + change;
    }
    cell.summary = "per-patch " + table.metric + " of " + std::to_string(series.patches.size()) +
                   " prefixes (the table in the detail); the tip against the base: " +
                   (tip.empty() ? "n/a" : tip);
    input.status.progress("gate " + input.name + ":\n" + table.text);
    return cell;
  }
};

}  // namespace

const Stage& session_cell_stage() {
  static const SessionCellStage stage;
  return stage;
}

const Stage& per_patch_timing_stage() {
  static const PerPatchTimingStage stage;
  return stage;
}

}  // namespace kseries::gate
