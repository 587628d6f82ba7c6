#include "report/gate_junit.h"

#include <gtest/gtest.h>

namespace kseries::report {
namespace {

using results::Outcome;

const TestCase* find_case(const TestSuite& suite, const std::string& name) {
  for (const auto& test : suite.cases) {
    if (test.name == name) {
      return &test;
    }
  }
  return nullptr;
}

bool has_property(const TestCase& test, const std::string& name) {
  return std::any_of(test.properties.begin(), test.properties.end(),
                     [&](const auto& p) { return p.first == name; });
}

// The verdict's outcome, not its prose, says which failure was expected.
TEST(GateJunitTest, AnXfailIsAPassCarryingItsTextAndAFailIsAFailure) {
  results::SeriesVerdict verdict{
      "s/bad", Outcome::k_fail, true, {{results::ReasonKind::k_note, "", "some words for people"}}};
  verdict.outcomes = {{"toy demo", Outcome::k_xfail}, {"toy other", Outcome::k_fail}};
  const std::vector<results::CellResult> cells = {
      {"s/bad", "toy demo", Outcome::k_fail, "slower", "slower\n", 1, {}},
      {"s/bad", "toy other", Outcome::k_fail, "differs", "differs\n", 1, {}},
      {"s/bad", "nopmem demo", Outcome::k_skip, "lacks pmem", "", 0, {}}};
  const auto suites = gate_junit_suites({verdict}, cells, false, "", false);
  ASSERT_EQ(suites.size(), 1u);
  const auto* expected = find_case(suites[0], "toy demo");
  ASSERT_NE(expected, nullptr);
  EXPECT_EQ(expected->status, CaseStatus::k_passed);
  EXPECT_TRUE(has_property(*expected, "expected_failure"));
  const auto* failed = find_case(suites[0], "toy other");
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->status, CaseStatus::k_failed);
  EXPECT_FALSE(has_property(*failed, "expected_failure"));
  EXPECT_EQ(find_case(suites[0], "nopmem demo")->status, CaseStatus::k_skipped);
}

// A known-bad series whose expectation does not hold fails though every
// cell passed: an "expectations" testcase fails with the reasons; a series
// whose expectations hold (or that has none) has no such testcase.
TEST(GateJunitTest, AnUnmetExpectationIsAFailedTestcase) {
  const results::Reason unmet{results::ReasonKind::k_unmet_expectation, "",
                              "no expectation of v1/expect is in this matrix: nothing here can "
                              "catch this known-bad revision"};
  // A reason of another kind whose text reads like one is not one: the
  // kind decides, not the words.
  const results::Reason note{results::ReasonKind::k_note, "", "ERROR lookalike"};
  results::SeriesVerdict bad{
      "v1",
      Outcome::k_fail,
      true,
      {{results::ReasonKind::k_not_in_plan, "kasan x", "(v1/expect:1 not checked)"}, unmet}};
  results::SeriesVerdict good{"v10", Outcome::k_pass, false, {note}};
  results::SeriesVerdict caught{"drain",
                                Outcome::k_xfail,
                                true,
                                {{results::ReasonKind::k_expectation_holds, "pmem nt", "text"}}};
  const std::vector<results::CellResult> cells = {
      {"v1", "pmem nt-ordering", Outcome::k_pass, "14 pass", "", 1, {}},
      {"v10", "pmem nt-ordering", Outcome::k_pass, "14 pass", "", 1, {}}};
  const auto suites = gate_junit_suites({bad, good, caught}, cells, false, "", false);
  ASSERT_EQ(suites.size(), 3u);
  const auto* expectations = find_case(suites[0], "expectations");
  ASSERT_NE(expectations, nullptr);
  EXPECT_EQ(expectations->status, CaseStatus::k_failed);
  EXPECT_EQ(expectations->message.find("no expectation of v1/expect"), 0u) << expectations->message;
  EXPECT_EQ(find_case(suites[0], "pmem nt-ordering")->status, CaseStatus::k_passed);
  EXPECT_EQ(find_case(suites[1], "expectations"), nullptr);
  EXPECT_EQ(find_case(suites[2], "expectations"), nullptr);
}

TEST(GateJunitTest, AnInterruptBetweenCellsIsTheLastSuitesError) {
  const results::SeriesVerdict verdict{"s/v1", Outcome::k_interrupted, false, {}};
  const auto suites =
      gate_junit_suites({verdict}, {}, true, "interrupted while running make", false);
  ASSERT_EQ(suites.size(), 1u);
  const auto* interrupted = find_case(suites[0], "interrupted");
  ASSERT_NE(interrupted, nullptr);
  EXPECT_EQ(interrupted->status, CaseStatus::k_error);
}

// The cell that was running holds the interrupt (an error cell whose text
// need not be the gate's): no second testcase for it.
TEST(GateJunitTest, AnInterruptACellHoldsIsNotReportedTwice) {
  const results::SeriesVerdict verdict{"s/v1", Outcome::k_interrupted, false, {}};
  const results::CellResult cell{
      "s/v1", "pmem memmap", results::Outcome::k_error, "interrupted (SIGINT)", "", 1, {}};
  const auto suites =
      gate_junit_suites({verdict}, {cell}, true, "interrupted while running qemu", true);
  ASSERT_EQ(suites.size(), 1u);
  EXPECT_EQ(find_case(suites[0], "interrupted"), nullptr);
  EXPECT_EQ(find_case(suites[0], "pmem memmap")->status, CaseStatus::k_error);
}

}  // namespace
}  // namespace kseries::report
