#include "gate/judge.h"

#include <algorithm>

#include "gate/checkpatch_findings.h"
#include "gate/revision_regression.h"

namespace kseries::gate {

using results::CellResult;
using results::Outcome;
using results::Reason;
using results::ReasonKind;
using results::SeriesVerdict;

SeriesVerdict judge_series(const std::string& series, const std::vector<CellResult>& cells,
                           const std::optional<Expectations>& expectations,
                           const std::vector<std::string>& planned) {
  SeriesVerdict verdict;
  verdict.series = series;
  verdict.known_bad = expectations.has_value();
  std::vector<Outcome> folded;
  const auto unmet = [&](const std::string& cell, const std::string& why) {
    verdict.reasons.push_back({ReasonKind::k_unmet_expectation, cell, why});
    folded.push_back(Outcome::k_fail);
  };
  const auto where = [&](const Expectation& e) {
    return expectations->file.string() + ":" + std::to_string(e.line);
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
    const Outcome outcome = expected && (holds || c.status != Outcome::k_fail)
                                ? results::expect_failure(c.status)
                                : c.status;
    verdict.outcomes.push_back({c.cell, outcome});
    folded.push_back(outcome);
    if (!expected) {
      if (c.status == Outcome::k_fail || c.status == Outcome::k_error) {
        verdict.reasons.push_back({ReasonKind::k_failed, c.cell, c.summary});
      }
    } else if (holds) {
      verdict.reasons.push_back({ReasonKind::k_expectation_holds, c.cell, expected->text});
    } else if (c.status == Outcome::k_fail) {
      unmet(c.cell, "failed, but not with '" + expected->text + "' (" + where(*expected) +
                        "): " + c.summary);
    } else {
      unmet(c.cell, "was expected to fail with '" + expected->text + "' but is " +
                        results::outcome_name(c.status) +
                        (c.summary.empty() ? "" : ": " + c.summary));
    }
  }
  if (expectations) {
    std::size_t applicable = 0;
    for (const auto& e : expectations->fails) {
      if (std::find(planned.begin(), planned.end(), e.cell) == planned.end()) {
        verdict.reasons.push_back(
            {ReasonKind::k_not_in_plan, e.cell, "(" + where(e) + " not checked)"});
        continue;
      }
      ++applicable;
      if (std::find(seen.begin(), seen.end(), e.cell) == seen.end()) {
        unmet(e.cell, "was expected to fail but did not run (" + where(e) + ")");
      }
    }
    if (applicable == 0 && !expectations->fails.empty()) {
      unmet("", "no expectation of " + expectations->file.string() +
                    " is in this matrix: nothing here can catch this known-bad revision");
    }
  }
  verdict.outcome = results::fold(folded);
  return verdict;
}

GateJudgement judge_gate(const std::vector<std::string>& planned,
                         const std::vector<JudgedSeries>& series,
                         const std::vector<CellResult>& cells,
                         const std::vector<RevisionComparison>& revisions,
                         const std::optional<RevisionRegressionPolicy>& policy,
                         const std::optional<CheckpatchPolicy>& checkpatch) {
  GateJudgement judgement;
  const auto findings = revision_findings(revisions, policy);
  const auto style = checkpatch_findings(revisions, cells, checkpatch);
  for (const auto& s : series) {
    auto verdict = judge_series(s.name, cells, s.expectations, planned);
    verdict.identity = s.identity;
    // A revision slower than the one before it: a failing
    // revision-regression cell beyond the policy (that stage's), else a
    // warning on its verdict line.
    for (const auto& finding : findings) {
      if (finding.series == s.name && !regression_fails(finding, verdict.known_bad)) {
        verdict.warnings.push_back(finding.text());
      }
    }
    for (const auto& finding : style) {
      if (finding.series == s.name && !(finding.fails && !verdict.known_bad)) {
        verdict.warnings.push_back(finding.text());
      }
    }
    judgement.verdicts.push_back(std::move(verdict));
  }
  judgement.outcome = gate_outcome(judgement.verdicts, false);
  return judgement;
}

Outcome gate_outcome(const std::vector<SeriesVerdict>& verdicts, bool interrupted) {
  if (interrupted) {
    return Outcome::k_interrupted;
  }
  std::vector<Outcome> outcomes;
  for (const auto& verdict : verdicts) {
    outcomes.push_back(verdict.ok() ? Outcome::k_pass : verdict.outcome);
  }
  return outcomes.empty() ? Outcome::k_pass : results::fold(outcomes);
}

}  // namespace kseries::gate
