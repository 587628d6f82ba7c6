#include "gate/revision_regression.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gate/checkpatch_findings.h"
#include "gate/reproducer.h"

namespace kseries::gate {

namespace {

std::string signed_percent(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f %%", value);
  return buffer;
}

}  // namespace

std::string RevisionFinding::text() const {
  return cell + " " + setup + " " + metric + " " + signed_percent(percent) + " [" +
         signed_percent(low) + ", " + signed_percent(high) + "] slower than " + from;
}

std::vector<RevisionFinding> revision_findings(
    const std::vector<RevisionComparison>& comparisons,
    const std::optional<RevisionRegressionPolicy>& policy) {
  std::vector<RevisionFinding> findings;
  for (const auto& comparison : comparisons) {
    for (const auto& timing : comparison.timings) {
      const auto& c = timing.comparison;
      if (c.verdict != stats::Verdict::k_slower || !std::isfinite(c.relative_change)) {
        continue;
      }
      RevisionFinding finding{comparison.to,
                              comparison.from,
                              timing.cell,
                              timing.setup,
                              timing.metric,
                              100 * c.relative_change,
                              100 * (c.ratio_interval.low - 1),
                              100 * (c.ratio_interval.high - 1),
                              false};
      finding.fails = policy && (!policy->metric || *policy->metric == timing.metric) &&
                      finding.percent > policy->max_percent;
      findings.push_back(std::move(finding));
    }
  }
  std::stable_sort(
      findings.begin(), findings.end(),
      [](const RevisionFinding& a, const RevisionFinding& b) { return a.percent > b.percent; });
  return findings;
}

bool regression_fails(const RevisionFinding& finding, bool known_bad) {
  return finding.fails && !known_bad;
}

const results::CellKind k_revision_regression_cell =
    results::register_cell_kind({"revision-regression", results::CellShape::k_word});

namespace {

class RevisionRegressionStage final : public Stage {
 public:
  results::CellKind kind() const override { return k_revision_regression_cell; }
  std::string time_bucket() const override { return "cells (build, boot, judge)"; }
  Placement placement() const override { return Placement::k_after_series; }

  std::vector<PlannedCell> plan(const ResolvedMatrix& matrix) const override {
    if (!matrix.revision_regression && !matrix.checkpatch) {
      return {};
    }
    return {{results::CellId{k_revision_regression_cell}, nullptr, nullptr, ""}};
  }

  std::vector<results::CellResult> run_after(const PlannedCell& planned,
                                             const AfterSeriesInput& input) const override {
    std::string rule;  // "max=5 % memmap_init_vns; checkpatch max-new-errors=0"
    char max[32] = "";
    if (input.policy) {
      std::snprintf(max, sizeof max, "%g", input.policy->max_percent);
      rule = std::string("max=") + max + " %" +
             (input.policy->metric ? " " + *input.policy->metric : std::string());
    }
    if (input.checkpatch) {
      rule += (rule.empty() ? "" : "; ") + std::string("checkpatch max-new-errors=") +
              std::to_string(input.checkpatch->max_new_errors);
    }
    const auto findings = revision_findings(input.revisions, input.policy);
    // Checkpatch errors a revision adds against its predecessor, likewise.
    const auto style = checkpatch_findings(input.revisions, input.cells, input.checkpatch);
    std::vector<results::CellResult> cells;
    for (const auto& series : input.series) {
      results::CellResult cell{series.name, planned.name(), results::Outcome::k_pass, "", "", 0,
                               {}};
      std::vector<const RevisionFinding*> failing;
      std::vector<std::string> style_failing;
      bool beyond = false;  // of a known-bad revision: its warnings
      for (const auto& finding : findings) {
        if (finding.series == series.name && regression_fails(finding, series.known_bad)) {
          failing.push_back(&finding);
        }
        beyond = beyond || (finding.series == series.name && finding.fails);
      }
      for (const auto& finding : style) {
        if (finding.series == series.name && finding.fails) {
          if (series.known_bad) {
            beyond = true;
          } else {
            style_failing.push_back(finding.text());
          }
        }
      }
      const bool compared = std::any_of(
          input.revisions.begin(), input.revisions.end(), [&](const RevisionComparison& c) {
            return c.to == series.name && (input.checkpatch || !c.timings.empty());
          });
      add_checkpatch_failures(style_failing, input.checkpatch, input.matrix_file, cell);
      if (input.policy) {
        cell.properties["policy.max_percent"] = max;
        cell.properties["policy.line"] =
            input.matrix_file + ":" + std::to_string(input.policy->line);
      }
      if (!failing.empty()) {
        cell.summary = failing.front()->text() + " (policy: " + rule + ")" +
                       (cell.summary.empty() ? "" : "; " + cell.summary);
        for (const auto* finding : failing) {
          cell.detail += finding->text() + "\n";
        }
        // What its reproduce.sh boots: the newer revision against the older
        // on the cell that was slower.
        cell.properties["regression.from"] = failing.front()->from;
        cell.properties["regression.cell"] = failing.front()->cell;
      }
      if (!failing.empty() || !style_failing.empty()) {
        cell.status = results::Outcome::k_fail;
      } else if (beyond) {
        cell.summary = "beyond the policy (" + rule +
                       "), but a known-bad revision: its verdict's warnings say where";
      } else if (!compared) {
        cell.status = results::Outcome::k_skip;
        cell.summary = "no earlier revision of this series was compared in this gate";
      } else {
        cell.summary = "nothing against the revision before it beyond the policy (" + rule + ")";
      }
      cells.push_back(std::move(cell));
    }
    return cells;
  }

  std::vector<std::vector<std::string>> reproduce(const PlannedCell&,
                                                  const results::CellResult& cell,
                                                  const ReproduceContext& context) const override {
    const auto from = cell.properties.find("regression.from");
    const auto slower = cell.properties.find("regression.cell");
    if (from == cell.properties.end() || slower == cell.properties.end()) {
      return {};
    }
    const auto& names = context.series_names;
    const auto older = std::find(names.begin(), names.end(), from->second);
    for (const auto& matrix_cell : context.matrix.cells) {
      if (older != names.end() &&
          results::CellId::session(matrix_cell.target, matrix_cell.test_case).to_string() ==
              slower->second) {
        return reproduce_against_commands(context.inputs, context.series_index,
                                          static_cast<std::size_t>(older - names.begin()),
                                          matrix_cell);
      }
    }
    return {};
  }
};

}  // namespace

const Stage& revision_regression_stage() {
  static const RevisionRegressionStage stage;
  return stage;
}

}  // namespace kseries::gate
