#include "gate/revision_regression.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

}  // namespace kseries::gate
