#include "gate/per_patch.h"

#include <chrono>
#include <optional>
#include <set>

#include "results/facts.h"

namespace kseries::run {

namespace fs = std::filesystem;

std::string file_safe(std::string name) {
  for (char& c : name) {
    c = (c == '/' || c == ' ') ? '-' : c;
  }
  return name;
}

results::CellResult per_patch_stage(const PerPatchInput& input, kernel::KernelBuilds& builder,
                                    Status& status) {
  using Clock = std::chrono::steady_clock;
  const Series& series = *input.series;
  const git::ApplyResult& applied = *input.applied;
  const kernel::Target& target = *input.target;
  const auto start = Clock::now();
  results::CellResult cell{input.series_name,
                           results::CellId::per_patch(target.name).to_string(),
                           results::Outcome::k_pass,
                           "",
                           "",
                           0,
                           {}};
  const std::size_t first = applied.outcomes.size() - series.patches.size();
  std::size_t broken = 0;
  // Warnings a patch adds: against the build before it (the base's, when
  // that kernel is in the cache).
  std::optional<std::set<std::string>> before;
  if (const auto base = builder.find(target, input.base)) {
    before.emplace(base->warnings.begin(), base->warnings.end());
  }
  for (std::size_t i = first; i < applied.outcomes.size(); ++i) {
    const auto& outcome = applied.outcomes[i];
    const std::string label =
        std::to_string(outcome.index + 1) + "/" + std::to_string(outcome.total);
    status.progress("gate " + input.series_name + ": build " + target.name + " after patch " +
                    label);
    const fs::path log =
        input.run_dir / ("build-" + file_safe(input.series_name) + "-" + target.name + "-" +
                         std::to_string(outcome.index + 1) + ".log");
    const auto built =
        builder.build({.target = &target,
                       .commit = outcome.commit,
                       .log = log,
                       .progress = [&](const std::string& text) {
                         status.progress(input.series_name + " " + label + ": " + text);
                       }});
    const int patch = outcome.index + 1;
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_build,
                            built.status == kernel::StepStatus::k_built    ? "built"
                            : built.status == kernel::StepStatus::k_cached ? "cached"
                            : built.status == kernel::StepStatus::k_not_constructible
                                ? "not constructible"
                                : "failed");
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_seconds,
                            std::to_string(built.seconds));
    if (fs::exists(log)) {
      results::set_patch_fact(cell.properties, patch, results::PatchFact::k_log, log.string());
    }
    if (built.kernel) {
      const std::set<std::string> now(built.kernel->warnings.begin(), built.kernel->warnings.end());
      results::set_patch_fact(cell.properties, patch, results::PatchFact::k_warnings,
                              std::to_string(now.size()));
      if (before) {
        std::size_t added = 0;
        for (const auto& warning : now) {
          if (!before->count(warning)) {
            ++added;
            cell.detail += "patch " + label + " adds a warning: " + warning + "\n";
          }
        }
        results::set_patch_fact(cell.properties, patch, results::PatchFact::k_new_warnings,
                                std::to_string(added));
      }
      before = now;
    } else {
      before.reset();
    }
    if (!built.kernel) {
      ++broken;
      cell.detail +=
          "patch " + label + " '" + outcome.subject + "' does not build" +
          (built.status == kernel::StepStatus::k_not_constructible ? " (target not constructible)"
                                                                   : "") +
          ":\n";
      for (const auto& error : built.errors) {
        cell.detail +=
            "  " + error.file + ":" + std::to_string(error.line) + ": " + error.message + "\n";
      }
      if (cell.summary.empty()) {
        cell.summary = "patch " + label + " '" + outcome.subject + "' does not build";
      }
    }
  }
  if (broken > 0) {
    cell.status = results::Outcome::k_fail;
    cell.summary += " (" + std::to_string(broken) + " of " + std::to_string(series.patches.size()) +
                    " patches break the build)";
  } else {
    cell.summary = "every patch builds (" + std::to_string(series.patches.size()) + ")";
  }
  cell.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return cell;
}

}  // namespace kseries::run
