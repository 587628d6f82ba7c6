#include "gate/per_patch.h"

#include <chrono>
#include <optional>
#include <set>

#include "gate/gate.h"
#include "results/facts.h"

namespace kseries::gate {

namespace fs = std::filesystem;

std::string file_safe(std::string name) {
  for (char& c : name) {
    c = (c == '/' || c == ' ') ? '-' : c;
  }
  return name;
}

std::vector<kernel::StepResult> build_steps(const kernel::Target& target,
                                            const std::vector<BuildStep>& steps,
                                            const BuildStepsOptions& options,
                                            kernel::KernelBuilds& builder) {
  std::vector<kernel::StepResult> results;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    options.starting(s);
    const bool last = s + 1 == steps.size();
    results.push_back(
        builder.build({.target = &target,
                       .commit = steps[s].commit,
                       .log = options.log(s),
                       .test_modules = last ? options.last_step_modules : std::vector<fs::path>{},
                       .configure_only = options.configure_only,
                       .progress = [&](const std::string& text) { options.progress(s, text); }}));
  }
  return results;
}

std::vector<std::string> added_warnings(const std::vector<std::string>& before,
                                        const std::vector<std::string>& now) {
  const std::set<std::string> known(before.begin(), before.end());
  std::vector<std::string> added;
  for (const auto& warning : now) {
    if (!known.count(warning)) {
      added.push_back(warning);
    }
  }
  return added;
}

namespace {

struct PerPatchInput {
  std::string series_name;
  const Series* series = nullptr;
  const git::ApplyResult* applied = nullptr;  // the chain applied; its last patches are SERIES'
  const kernel::Target* target = nullptr;
  git_oid base{};
  std::filesystem::path run_dir;  // build-SERIES-TARGET-N.log go here
};

const char* build_fact(kernel::StepStatus status) {
  switch (status) {
    case kernel::StepStatus::k_built:
      return "built";
    case kernel::StepStatus::k_cached:
      return "cached";
    case kernel::StepStatus::k_not_constructible:
      return "not constructible";
    default:
      return "failed";
  }
}

// The steps of the series' own patches ("1/8"), their logs in RUN_DIR.
std::vector<BuildStep> series_steps(const PerPatchInput& input) {
  std::vector<BuildStep> steps;
  const auto& outcomes = input.applied->outcomes;
  for (std::size_t i = outcomes.size() - input.series->patches.size(); i < outcomes.size(); ++i) {
    const auto& outcome = outcomes[i];
    steps.push_back({std::to_string(outcome.index + 1) + "/" + std::to_string(outcome.total),
                     outcome.subject, outcome.commit, outcome.index + 1});
  }
  return steps;
}

// A patch that does not build: its first errors, in the cell's detail.
void describe_broken(const BuildStep& step, const kernel::StepResult& built,
                     results::CellResult& cell) {
  cell.detail +=
      "patch " + step.label + " '" + step.subject + "' does not build" +
      (built.status == kernel::StepStatus::k_not_constructible ? " (target not constructible)"
                                                               : "") +
      ":\n";
  for (const auto& error : built.errors) {
    cell.detail +=
        "  " + error.file + ":" + std::to_string(error.line) + ": " + error.message + "\n";
  }
  if (cell.summary.empty()) {
    cell.summary = "patch " + step.label + " '" + step.subject + "' does not build";
  }
}

results::CellResult build_every_patch(const PerPatchInput& input, kernel::KernelBuilds& builder,
                                      session::Status& status) {
  const kernel::Target& target = *input.target;
  results::CellResult cell{input.series_name,
                           results::CellId::per_patch(target.name).to_string(),
                           results::Outcome::k_pass,
                           "",
                           "",
                           0,
                           {}};
  const auto steps = series_steps(input);
  const auto log = [&](std::size_t s) {
    return input.run_dir / ("build-" + file_safe(input.series_name) + "-" + target.name + "-" +
                            std::to_string(steps[s].patch) + ".log");
  };
  BuildStepsOptions options;
  options.log = log;
  options.starting = [&](std::size_t s) {
    status.progress("gate " + input.series_name + ": build " + target.name + " after patch " +
                    steps[s].label);
  };
  options.progress = [&](std::size_t s, const std::string& text) {
    status.progress(input.series_name + " " + steps[s].label + ": " + text);
  };
  // Warnings a patch adds: against the build before it (the base's, when
  // that kernel is in the cache).
  std::optional<std::vector<std::string>> before;
  if (const auto base = builder.find(target, input.base)) {
    before = base->warnings;
  }
  const auto built = build_steps(target, steps, options, builder);
  std::size_t broken = 0;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const int patch = static_cast<int>(steps[s].patch);
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_build,
                            build_fact(built[s].status));
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_seconds,
                            std::to_string(built[s].seconds));
    if (fs::exists(log(s))) {
      results::set_patch_fact(cell.properties, patch, results::PatchFact::k_log, log(s).string());
    }
    if (!built[s].kernel) {
      ++broken;
      describe_broken(steps[s], built[s], cell);
      before.reset();
      continue;
    }
    const std::set<std::string> distinct(built[s].kernel->warnings.begin(),
                                         built[s].kernel->warnings.end());
    const std::vector<std::string> now(distinct.begin(), distinct.end());
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_warnings,
                            std::to_string(now.size()));
    if (before) {
      const auto added = added_warnings(*before, now);
      for (const auto& warning : added) {
        cell.detail += "patch " + steps[s].label + " adds a warning: " + warning + "\n";
      }
      results::set_patch_fact(cell.properties, patch, results::PatchFact::k_new_warnings,
                              std::to_string(added.size()));
    }
    before = now;
  }
  if (broken > 0) {
    cell.status = results::Outcome::k_fail;
    cell.summary += " (" + std::to_string(broken) + " of " + std::to_string(steps.size()) +
                    " patches break the build)";
  } else {
    cell.summary = "every patch builds (" + std::to_string(steps.size()) + ")";
  }
  return cell;
}

class PerPatchStage final : public Stage {
 public:
  results::CellKind kind() const override { return results::k_per_patch_cell; }
  std::string time_bucket() const override { return "per-patch builds"; }

  std::vector<PlannedCell> plan(const ResolvedMatrix& matrix) const override {
    if (!matrix.per_patch_target) {
      return {};
    }
    return {{results::CellId::per_patch(*matrix.per_patch_target), nullptr, nullptr,
             "target " + *matrix.per_patch_target}};
  }

  std::optional<WorkInput> work(const PlannedCell& planned, const SeriesInput&) const override {
    return WorkInput{planned.id.target, std::nullopt, ""};
  }

  results::CellResult run(const PlannedCell& planned, SeriesInput& input) const override {
    const auto target = kernel::load_target(input.request.matrix.configs, planned.id.target);
    return build_every_patch({input.name, &input.series(), &*input.applied, &target,
                              input.request.base, input.request.run_dir},
                             input.services.builder, input.status);
  }
};

}  // namespace

const Stage& per_patch_stage() {
  static const PerPatchStage stage;
  return stage;
}

}  // namespace kseries::gate
