#include "gate/gate_cells.h"

#include <algorithm>
#include <map>

namespace kseries::gate {

using results::CellResult;
using results::Outcome;
using results::SeriesVerdict;

SeriesVerdict judge_series(const std::string& series, const std::vector<CellResult>& cells,
                           const std::optional<Expectations>& expectations,
                           const std::vector<std::string>* planned) {
  SeriesVerdict verdict{series, true, expectations.has_value(), {}};
  const auto unmet = [&](const std::string& why) {
    verdict.ok = false;
    verdict.lines.push_back(std::string(results::k_unmet_expectation) + why);
  };
  std::vector<std::string> seen;
  for (const auto& c : cells) {
    if (c.series != series) {
      continue;
    }
    seen.push_back(c.cell);
    const Expectation* expected = expectations ? expectations->find(c.cell) : nullptr;
    // lit's setResult: a failure with the expected text is xfail, a pass
    // xpass; a failure with another text stays a failure.
    const bool holds = c.status == Outcome::k_fail && expected &&
                       c.detail.find(expected->text) != std::string::npos;
    verdict.outcomes.push_back({c.cell, expected && (holds || c.status != Outcome::k_fail)
                                            ? results::expect_failure(c.status)
                                            : c.status});
    if (expected) {
      if (holds) {
        verdict.lines.push_back("expected failure holds: " + c.cell + ": " + expected->text);
      } else if (c.status == Outcome::k_fail) {
        unmet(c.cell + " failed, but not with '" + expected->text + "' (" +
              expectations->file.string() + ":" + std::to_string(expected->line) +
              "): " + c.summary);
      } else {
        unmet(c.cell + " was expected to fail with '" + expected->text + "' but is " +
              results::outcome_name(c.status) + (c.summary.empty() ? "" : ": " + c.summary));
      }
    } else if (c.status == Outcome::k_fail || c.status == Outcome::k_error) {
      verdict.ok = false;
      verdict.lines.push_back("FAILED " + c.cell + ": " + c.summary);
    }
  }
  if (expectations) {
    std::size_t applicable = 0;
    for (const auto& e : expectations->fails) {
      if (planned && std::find(planned->begin(), planned->end(), e.cell) == planned->end()) {
        verdict.lines.push_back("not in this matrix: " + e.cell + " (" +
                                expectations->file.string() + ":" + std::to_string(e.line) +
                                " not checked)");
        continue;
      }
      ++applicable;
      if (std::find(seen.begin(), seen.end(), e.cell) == seen.end()) {
        unmet(e.cell + " was expected to fail but did not run (" + expectations->file.string() +
              ":" + std::to_string(e.line) + ")");
      }
    }
    if (applicable == 0 && !expectations->fails.empty()) {
      unmet("no expectation of " + expectations->file.string() +
            " is in this matrix: nothing here can catch this known-bad revision");
    }
  }
  return verdict;
}

const std::vector<std::string>& gate_time_stages() {
  static const std::vector<std::string> stages = {"apply", "checkpatch", "per-patch builds",
                                                  "per-patch timing", "cells (build, boot, judge)"};
  return stages;
}

std::string gate_time_stage(const results::CellId& cell) {
  switch (cell.stage) {
    case results::Stage::k_apply:
      return "apply";
    case results::Stage::k_checkpatch:
      return "checkpatch";
    case results::Stage::k_per_patch:
      return "per-patch builds";
    case results::Stage::k_per_patch_timing:
      return "per-patch timing";
    case results::Stage::k_revision_regression:
    case results::Stage::k_session:
    case results::Stage::k_coverage:
      break;
  }
  return "cells (build, boot, judge)";
}

std::vector<std::pair<std::string, double>> gate_time_of(const std::vector<CellResult>& cells,
                                                         const std::string& suffix) {
  std::map<std::string, double> time;
  for (const auto& cell : cells) {
    const auto id = cell.id();
    time[id ? gate_time_stage(*id) : gate_time_stages().back()] += cell.seconds;
  }
  std::vector<std::pair<std::string, double>> stages;
  for (const auto& stage : gate_time_stages()) {
    stages.emplace_back(stage + suffix, time[stage]);
  }
  return stages;
}

}  // namespace kseries::gate
