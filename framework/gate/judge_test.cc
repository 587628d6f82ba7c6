#include "gate/judge.h"

#include <gtest/gtest.h>

#include "core/text.h"

#include "core/error.h"
#include "gate/checkpatch.h"
#include "gate/revision_regression.h"
#include "gate/stages.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

results::CellResult cell(const std::string& name, results::Outcome status,
                         const std::string& detail = "") {
  return {"s/v1", name, status, detail.substr(0, detail.find('\n')), detail, 1, {}};
}

// The cells these tests' gate plans.
const std::vector<std::string> k_planned = {"apply", "kmsan sanitizer-gating", "pmem memmap-timing",
                                            "pmem memmap-types"};

std::string lines(const results::SeriesVerdict& verdict) {
  std::vector<std::string> out;
  for (const auto& reason : verdict.reasons) {
    out.push_back(results::reason_line(reason));
  }
  return join_lines(out);
}

TEST(ExpectationsTest, ParsesAndRefusesNamingTheLine) {
  const auto e = parse_expectations(
      "# what must be caught\n"
      "fail: per-patch pmem: does not build\n"
      "fail: pmem memmap-types: field _refcount\n",
      "expect");
  ASSERT_EQ(e.fails.size(), 2u);
  EXPECT_EQ(e.fails[1].cell, "pmem memmap-types");
  EXPECT_EQ(e.fails[1].text, "field _refcount");
  EXPECT_EQ(e.fails[1].line, 3);
  try {
    parse_expectations("\npass: pmem x: y\n", "expect");
    FAIL() << "no error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("expect:2: expected 'fail: CELL: TEXT'"),
              std::string::npos)
        << err.what();
  }
}

TEST(JudgeSeriesTest, AGoodSeriesPassesOnlyWhenNothingFails) {
  std::vector<results::CellResult> cells = {
      cell("apply", results::Outcome::k_pass), cell("pmem memmap-timing", results::Outcome::k_pass),
      cell("kmsan sanitizer-gating", results::Outcome::k_skip)};
  EXPECT_TRUE(judge_series("s/v1", cells, std::nullopt, k_planned).ok());
  cells.push_back(cell("pmem memmap-types", results::Outcome::k_error, "no such module"));
  const auto v = judge_series("s/v1", cells, std::nullopt, k_planned);
  EXPECT_FALSE(v.ok());
  EXPECT_NE(lines(v).find("FAILED pmem memmap-types: no such module"), std::string::npos);
}

TEST(JudgeSeriesTest, ExpectedFailuresMustHappenWithTheirText) {
  const auto expect = parse_expectations("fail: pmem memmap-types: field _refcount\n", "expect");
  // Caught for the right reason: the known-bad series is "ok".
  std::vector<results::CellResult> caught = {
      cell("pmem memmap-types", results::Outcome::k_fail, "first: field _refcount at pfn 0x1")};
  EXPECT_TRUE(judge_series("s/v1", caught, expect, k_planned).ok());
  // An expected failure that passes is an error (the check did not catch it).
  const auto passed = judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_pass)},
                                   expect, k_planned);
  EXPECT_FALSE(passed.ok());
  EXPECT_NE(lines(passed).find("was expected to fail with 'field _refcount' but is pass"),
            std::string::npos)
      << lines(passed);
  // Failing for another reason is not the expected failure.
  const auto other =
      judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_fail, "guest died")},
                   expect, k_planned);
  EXPECT_FALSE(other.ok());
  EXPECT_NE(lines(other).find("failed, but not with 'field _refcount'"), std::string::npos);
  // Another cell failing is still a failure; a cell that never ran is an error.
  const auto extra =
      judge_series("s/v1",
                   {cell("pmem memmap-types", results::Outcome::k_fail, "field _refcount"),
                    cell("pmem memmap-timing", results::Outcome::k_fail, "slower")},
                   expect, k_planned);
  EXPECT_FALSE(extra.ok());
  const auto missing =
      judge_series("s/v1", {cell("apply", results::Outcome::k_pass)}, expect, k_planned);
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(lines(missing).find("did not run"), std::string::npos);
}

// lit's setResult: the expectation is the outcome, not a line of prose.
TEST(JudgeSeriesTest, AnExpectationTurnsFailIntoXfailAndPassIntoXpass) {
  const auto expect = parse_expectations("fail: pmem memmap-types: field _refcount\n", "expect");
  const auto caught = judge_series(
      "s/v1",
      {cell("apply", results::Outcome::k_pass),
       cell("pmem memmap-types", results::Outcome::k_fail, "first: field _refcount at pfn 0x1")},
      expect, k_planned);
  EXPECT_EQ(caught.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_xfail);
  EXPECT_EQ(caught.outcome_of("apply", results::Outcome::k_error), results::Outcome::k_pass);
  const auto passed = judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_pass)},
                                   expect, k_planned);
  EXPECT_EQ(passed.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_xpass);
  // Failing for another reason is a failure, not the expected one.
  const auto other =
      judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_fail, "guest died")},
                   expect, k_planned);
  EXPECT_EQ(other.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_fail);
  // Without expectations every cell keeps its stage's outcome.
  const auto good = judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_fail, "x")},
                                 std::nullopt, k_planned);
  EXPECT_EQ(good.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_fail);
}

TEST(GateTimeTest, AGateAndAMergeBucketTheirCellsAlike) {
  std::vector<results::CellResult> cells = {cell("apply", results::Outcome::k_pass),
                                            cell("per-patch pmem", results::Outcome::k_pass),
                                            cell("pmem memmap-timing", results::Outcome::k_pass),
                                            cell("revision-regression", results::Outcome::k_fail)};
  cells[0].seconds = 2.5;
  const auto time = gate_time_of(cells, " (all shards)");
  ASSERT_EQ(time.size(), gate_time_stages().size());
  EXPECT_EQ(time[0].first, "apply (all shards)");
  EXPECT_DOUBLE_EQ(time[0].second, 2.5);
  EXPECT_EQ(time[2].first, "per-patch builds (all shards)");
  EXPECT_DOUBLE_EQ(time[2].second, 1);
  EXPECT_EQ(time[3].first, "cells (build, boot, judge) (all shards)");
  EXPECT_DOUBLE_EQ(time[3].second, 2);
  // Every stage's cells count in one line of the time report.
  for (const Stage* stage : gate_stages()) {
    EXPECT_NE(std::find(gate_time_stages().begin(), gate_time_stages().end(), stage->time_bucket()),
              gate_time_stages().end());
  }
}

// The verdict is the fold of the judged cells and the unmet expectations:
// typed, with one word for it.
TEST(JudgeSeriesTest, TheVerdictIsTheFoldOfItsCells) {
  const std::vector<results::CellResult> good = {
      cell("apply", results::Outcome::k_pass),
      cell("pmem memmap-timing", results::Outcome::k_skip)};
  EXPECT_EQ(judge_series("s/v1", good, std::nullopt, k_planned).outcome, results::Outcome::k_pass);
  auto erred = good;
  erred.push_back(cell("pmem memmap-types", results::Outcome::k_error, "no such module"));
  erred.push_back(cell("kmsan sanitizer-gating", results::Outcome::k_fail, "fast path ran"));
  const auto v = judge_series("s/v1", erred, std::nullopt, k_planned);
  EXPECT_EQ(v.outcome, results::Outcome::k_error);
  EXPECT_EQ(results::verdict_word(v.outcome), "ERROR");
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0].kind, results::ReasonKind::k_failed);
  EXPECT_EQ(v.reasons[0].cell, "pmem memmap-types");
  const auto expect = parse_expectations("fail: pmem memmap-types: field _refcount\n", "expect");
  const auto caught = judge_series(
      "s/v1",
      {cell("apply", results::Outcome::k_pass),
       cell("pmem memmap-types", results::Outcome::k_fail, "field _refcount at pfn 0x1")},
      expect, k_planned);
  EXPECT_EQ(caught.outcome, results::Outcome::k_xfail);
  EXPECT_EQ(results::verdict_word(caught.outcome), "EXPECTED");
  // An expectation that did not run: a typed reason naming the cell, a failure.
  const auto missing =
      judge_series("s/v1", {cell("apply", results::Outcome::k_pass)}, expect, k_planned);
  EXPECT_EQ(missing.outcome, results::Outcome::k_fail);
  ASSERT_EQ(missing.reasons.size(), 1u);
  EXPECT_EQ(missing.reasons[0].kind, results::ReasonKind::k_unmet_expectation);
  EXPECT_EQ(missing.reasons[0].cell, "pmem memmap-types");
}

RevisionComparison slower(const std::string& from, const std::string& to, double relative) {
  RevisionComparison c;
  c.from = from;
  c.to = to;
  report::RevisionTiming t;
  t.cell = "pmem memmap-timing";
  t.setup = "fsdax-dev";
  t.metric = "memmap_init_vns";
  t.comparison.relative_change = relative;
  t.comparison.ratio = 1 + relative;
  t.comparison.ratio_interval.low = 1 + relative - 0.002;
  t.comparison.ratio_interval.high = 1 + relative + 0.002;
  t.comparison.verdict = stats::Verdict::k_slower;
  c.timings.push_back(t);
  return c;
}

// One judge for a gate and a merge: a revision slower than the one before
// it is a warning, unless the policy's revision-regression cell failed it.
TEST(JudgeGateTest, ASlowerRevisionIsAWarningOrItsRegressionCellFails) {
  const std::vector<std::string> planned = {"apply", "pmem memmap-timing", "revision-regression"};
  const std::vector<RevisionComparison> revisions = {slower("s/v1", "s/v2", 0.161)};
  std::vector<results::CellResult> cells;
  for (const char* series : {"s/v1", "s/v2"}) {
    for (const auto& name : {"apply", "pmem memmap-timing"}) {
      cells.push_back({series, name, results::Outcome::k_pass, "", "", 1, {}});
    }
  }
  const std::vector<JudgedSeries> series = {{"s/v1", "", std::nullopt},
                                            {"s/v2", "change-id x v2", std::nullopt}};
  // No policy: v2 passes with a warning, v1 (nothing before it) without.
  auto judged = judge_gate(planned, series, cells, revisions, std::nullopt, std::nullopt);
  ASSERT_EQ(judged.verdicts.size(), 2u);
  EXPECT_TRUE(judged.verdicts[0].warnings.empty());
  ASSERT_EQ(judged.verdicts[1].warnings.size(), 1u);
  EXPECT_NE(judged.verdicts[1].warnings[0].find("+16.1 %"), std::string::npos);
  EXPECT_EQ(judged.verdicts[1].identity, "change-id x v2");
  EXPECT_EQ(judged.outcome, results::Outcome::k_pass);
  // max=10 %: the stage fails v2's revision-regression cell, the judge
  // fails v2 for it and warns no more.
  const RevisionRegressionPolicy policy{10, std::nullopt, 3};
  const std::optional<CheckpatchPolicy> no_checkpatch;
  const AfterSeriesInput after{
      {{"s/v1", false}, {"s/v2", false}}, revisions, policy, "m.matrix", cells, no_checkpatch};
  const PlannedCell planned_cell{results::CellId{k_revision_regression_cell},
                                 &revision_regression_stage(), nullptr, ""};
  const auto regression = revision_regression_stage().run_after(planned_cell, after);
  ASSERT_EQ(regression.size(), 2u);
  EXPECT_EQ(regression[0].status, results::Outcome::k_skip);
  EXPECT_EQ(regression[1].status, results::Outcome::k_fail);
  EXPECT_EQ(regression[1].properties.at("policy.line"), "m.matrix:3");
  cells.insert(cells.end(), regression.begin(), regression.end());
  judged = judge_gate(planned, series, cells, revisions, policy, std::nullopt);
  EXPECT_TRUE(judged.verdicts[1].warnings.empty());
  EXPECT_EQ(judged.verdicts[1].outcome, results::Outcome::k_fail);
  EXPECT_EQ(judged.verdicts[1].reasons.at(0).cell, "revision-regression");
  EXPECT_EQ(judged.outcome, results::Outcome::k_fail);
  // A known-bad revision is not failed by it: warned.
  const auto known_bad = revision_regression_stage().run_after(
      planned_cell,
      {{{"s/v1", false}, {"s/v2", true}}, revisions, policy, "m.matrix", cells, no_checkpatch});
  EXPECT_EQ(known_bad[1].status, results::Outcome::k_pass);
}

TEST(JudgeGateTest, TheGatePassesWhenNoVerdictIsAFailure) {
  results::SeriesVerdict pass{"a", results::Outcome::k_pass, false, {}};
  results::SeriesVerdict expected{"b", results::Outcome::k_xfail, true, {}};
  results::SeriesVerdict error{"c", results::Outcome::k_error, false, {}};
  EXPECT_EQ(gate_outcome({pass, expected}, false), results::Outcome::k_pass);
  EXPECT_EQ(gate_outcome({pass, expected, error}, false), results::Outcome::k_error);
  EXPECT_EQ(gate_outcome({pass}, true), results::Outcome::k_interrupted);
}

TEST(JudgeSeriesTest, ExpectationsOutsideTheMatrixAreNotedButOneMustApply) {
  const auto expect = parse_expectations(
      "fail: kasan sanitizer-gating: the fast path ran\n"
      "fail: kmsan sanitizer-gating: the fast path ran\n",
      "expect");
  const std::vector<std::string> default_matrix{"apply", "kasan sanitizer-gating"};
  const auto v = judge_series(
      "s/v1", {cell("kasan sanitizer-gating", results::Outcome::k_fail, "the fast path ran: -93%")},
      expect, default_matrix);
  EXPECT_TRUE(v.ok()) << lines(v);
  EXPECT_NE(lines(v).find("not in this matrix: kmsan sanitizer-gating"), std::string::npos);
  // In the matrix but not run is still an error.
  EXPECT_FALSE(
      judge_series("s/v1", {cell("apply", results::Outcome::k_pass)}, expect, default_matrix).ok());
  // A matrix that holds none of them cannot catch the revision.
  const std::vector<std::string> quick{"apply", "pmem memmap-timing"};
  const auto none =
      judge_series("s/v1", {cell("pmem memmap-timing", results::Outcome::k_pass)}, expect, quick);
  EXPECT_FALSE(none.ok());
  EXPECT_NE(lines(none).find("nothing here can catch"), std::string::npos);
}

TEST(CellStoreTest, SavesAfterEveryCellAndResumesFinishedOnes) {
  testing::TempDir tmp;
  const auto file = tmp.path() / "gate.json";
  {
    results::CellStore store(file);
    store.record(cell("apply", results::Outcome::k_pass));
    store.record(cell("pmem memmap-timing", results::Outcome::k_fail, "slower"));
    store.record(cell("pmem memmap-types", results::Outcome::k_error, "interrupted"));
  }
  results::CellStore again(tmp.path() / "gate2.json");
  again.load_previous(file);
  ASSERT_NE(again.previous("s/v1", "pmem memmap-timing"), nullptr);
  EXPECT_EQ(again.previous("s/v1", "pmem memmap-timing")->detail, "slower");
  // An error (an interrupt, an infrastructure failure) is run again.
  EXPECT_EQ(again.previous("s/v1", "pmem memmap-types"), nullptr);
  EXPECT_EQ(again.previous("s/v2", "apply"), nullptr);
}

TEST(CheckpatchTest, CountsTerseOutput) {
  const auto r = parse_checkpatch(
      "x.patch:12: WARNING:LONG_LINE: line length of 101 exceeds 100 columns\n"
      "x.patch:30: ERROR:TRAILING_WHITESPACE: trailing whitespace\n"
      "x.patch:31: CHECK:SPACING: spaces preferred around that '+'\n"
      "x.patch:40: WARNING:TYPO_SPELLING: 'teh' may be misspelled\n");
  EXPECT_EQ(r.errors, 1);
  EXPECT_EQ(r.warnings, 2);
  EXPECT_EQ(r.checks, 1);
  ASSERT_EQ(r.lines.size(), 4u);
  EXPECT_EQ(r.lines[1], "ERROR:TRAILING_WHITESPACE: trailing whitespace");
}

}  // namespace
}  // namespace kseries::gate
