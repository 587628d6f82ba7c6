#include "gate/gate_cells.h"

#include <gtest/gtest.h>

#include "core/text.h"

#include "core/error.h"
#include "gate/checkpatch.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

results::CellResult cell(const std::string& name, results::Outcome status,
                         const std::string& detail = "") {
  return {"s/v1", name, status, detail.substr(0, detail.find('\n')), detail, 1, {}};
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
  EXPECT_TRUE(judge_series("s/v1", cells, std::nullopt).ok);
  cells.push_back(cell("pmem memmap-types", results::Outcome::k_error, "no such module"));
  const auto v = judge_series("s/v1", cells, std::nullopt);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(join_lines(v.lines).find("FAILED pmem memmap-types: no such module"),
            std::string::npos);
}

TEST(JudgeSeriesTest, ExpectedFailuresMustHappenWithTheirText) {
  const auto expect = parse_expectations("fail: pmem memmap-types: field _refcount\n", "expect");
  // Caught for the right reason: the known-bad series is "ok".
  std::vector<results::CellResult> caught = {
      cell("pmem memmap-types", results::Outcome::k_fail, "first: field _refcount at pfn 0x1")};
  EXPECT_TRUE(judge_series("s/v1", caught, expect).ok);
  // An expected failure that passes is an error (the check did not catch it).
  const auto passed =
      judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_pass)}, expect);
  EXPECT_FALSE(passed.ok);
  EXPECT_NE(
      join_lines(passed.lines).find("was expected to fail with 'field _refcount' but is pass"),
      std::string::npos)
      << join_lines(passed.lines);
  // Failing for another reason is not the expected failure.
  const auto other = judge_series(
      "s/v1", {cell("pmem memmap-types", results::Outcome::k_fail, "guest died")}, expect);
  EXPECT_FALSE(other.ok);
  EXPECT_NE(join_lines(other.lines).find("failed, but not with 'field _refcount'"),
            std::string::npos);
  // Another cell failing is still a failure; a cell that never ran is an error.
  const auto extra =
      judge_series("s/v1",
                   {cell("pmem memmap-types", results::Outcome::k_fail, "field _refcount"),
                    cell("pmem memmap-timing", results::Outcome::k_fail, "slower")},
                   expect);
  EXPECT_FALSE(extra.ok);
  const auto missing = judge_series("s/v1", {cell("apply", results::Outcome::k_pass)}, expect);
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(join_lines(missing.lines).find("did not run"), std::string::npos);
}

// lit's setResult: the expectation is the outcome, not a line of prose.
TEST(JudgeSeriesTest, AnExpectationTurnsFailIntoXfailAndPassIntoXpass) {
  const auto expect = parse_expectations("fail: pmem memmap-types: field _refcount\n", "expect");
  const auto caught = judge_series(
      "s/v1",
      {cell("apply", results::Outcome::k_pass),
       cell("pmem memmap-types", results::Outcome::k_fail, "first: field _refcount at pfn 0x1")},
      expect);
  EXPECT_EQ(caught.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_xfail);
  EXPECT_EQ(caught.outcome_of("apply", results::Outcome::k_error), results::Outcome::k_pass);
  const auto passed =
      judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_pass)}, expect);
  EXPECT_EQ(passed.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_xpass);
  // Failing for another reason is a failure, not the expected one.
  const auto other = judge_series(
      "s/v1", {cell("pmem memmap-types", results::Outcome::k_fail, "guest died")}, expect);
  EXPECT_EQ(other.outcome_of("pmem memmap-types", results::Outcome::k_error),
            results::Outcome::k_fail);
  // Without expectations every cell keeps its stage's outcome.
  const auto good = judge_series("s/v1", {cell("pmem memmap-types", results::Outcome::k_fail, "x")},
                                 std::nullopt);
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
  EXPECT_EQ(time.back().first, "cells (build, boot, judge) (all shards)");
  EXPECT_DOUBLE_EQ(time.back().second, 2);
}

TEST(JudgeSeriesTest, ExpectationsOutsideTheMatrixAreNotedButOneMustApply) {
  const auto expect = parse_expectations(
      "fail: kasan sanitizer-gating: the fast path ran\n"
      "fail: kmsan sanitizer-gating: the fast path ran\n",
      "expect");
  const std::vector<std::string> default_matrix{"apply", "kasan sanitizer-gating"};
  const auto v = judge_series(
      "s/v1", {cell("kasan sanitizer-gating", results::Outcome::k_fail, "the fast path ran: -93%")},
      expect, &default_matrix);
  EXPECT_TRUE(v.ok) << join_lines(v.lines);
  EXPECT_NE(join_lines(v.lines).find("not in this matrix: kmsan sanitizer-gating"),
            std::string::npos);
  // In the matrix but not run is still an error.
  EXPECT_FALSE(
      judge_series("s/v1", {cell("apply", results::Outcome::k_pass)}, expect, &default_matrix).ok);
  // A matrix that holds none of them cannot catch the revision.
  const std::vector<std::string> quick{"apply", "pmem memmap-timing"};
  const auto none =
      judge_series("s/v1", {cell("pmem memmap-timing", results::Outcome::k_pass)}, expect, &quick);
  EXPECT_FALSE(none.ok);
  EXPECT_NE(join_lines(none.lines).find("nothing here can catch"), std::string::npos);
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
