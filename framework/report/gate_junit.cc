#include "report/gate_junit.h"

#include <algorithm>
#include <optional>
#include <string>

namespace kseries::report {
namespace {

// An expectation that does not hold (an expected failure that passed, did
// not run, or a matrix with none of them) fails the series but no cell of
// it: one failed testcase says so, or a JUnit consumer would count the
// series green (the 2026-12-03 nt-ordering gate: `verdict: FAIL`, a
// junit.xml with failures="0").
std::optional<TestCase> unmet_expectations(const results::SeriesVerdict& verdict) {
  std::string lines;
  std::string first;
  for (const auto& reason : verdict.reasons) {
    if (reason.kind == results::ReasonKind::k_unmet_expectation) {
      const auto what = reason.sentence();
      first = first.empty() ? what : first;
      lines += what + "\n";
    }
  }
  if (lines.empty()) {
    return std::nullopt;
  }
  TestCase test;
  test.classname = "gate." + verdict.series;
  test.name = "expectations";
  test.status = CaseStatus::k_failed;
  test.message = first;
  // The body repeats the message: the other lines only when there are some.
  test.detail = lines.size() > first.size() + 1 ? lines.substr(0, 8000) : "";
  return test;
}

}  // namespace

std::vector<TestSuite> gate_junit_suites(const std::vector<results::SeriesVerdict>& verdicts,
                                         const std::vector<results::CellResult>& cells,
                                         bool interrupted, const std::string& interruption,
                                         bool in_a_cell) {
  std::vector<TestSuite> suites;
  for (const auto& verdict : verdicts) {
    TestSuite suite;
    suite.name = "kseries gate " + verdict.series;
    suite.timestamp = utc_timestamp();
    suite.properties = {{"verdict", results::verdict_key(verdict.outcome)},
                        {"known_bad", verdict.known_bad ? "yes" : "no"}};
    if (!verdict.identity.empty()) {
      suite.properties.emplace_back("identity", verdict.identity);
    }
    for (const auto& warning : verdict.warnings) {
      suite.properties.emplace_back("warning", warning);
    }
    for (const auto& cell : cells) {
      if (cell.series != verdict.series) {
        continue;
      }
      TestCase test;
      test.classname = "gate." + verdict.series;
      test.name = cell.cell;
      test.seconds = cell.seconds;
      test.message = cell.summary;
      test.detail = cell.detail.substr(0, 8000);
      const bool expected = verdict.outcome_of(cell.cell, cell.status) == results::Outcome::k_xfail;
      if (cell.status == results::Outcome::k_skip) {
        test.status = CaseStatus::k_skipped;
      } else if (cell.status == results::Outcome::k_error) {
        test.status = CaseStatus::k_error;  // it could not be judged
      } else if (cell.status == results::Outcome::k_fail && !expected) {
        test.status = CaseStatus::k_failed;
      }
      if (expected) {
        test.properties = {{"expected_failure", "yes"}};
      }
      for (const auto& [name, value] : cell.properties) {
        test.properties.emplace_back(name, value);
      }
      suite.cases.push_back(std::move(test));
    }
    if (auto unmet = unmet_expectations(verdict)) {
      suite.cases.push_back(std::move(*unmet));
    }
    suites.push_back(std::move(suite));
  }
  // An interrupt between cells (checkpatch, per-patch builds) leaves no cell
  // in error for it: the last suite says where the gate stopped.
  if (interrupted && !in_a_cell && !suites.empty()) {
    TestCase test;
    test.classname = "gate." + verdicts.back().series;
    test.name = "interrupted";
    test.status = CaseStatus::k_error;
    test.message = interruption;
    suites.back().cases.push_back(std::move(test));
  }
  return suites;
}

}  // namespace kseries::report
