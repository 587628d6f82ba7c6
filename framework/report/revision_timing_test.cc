#include "report/revision_timing.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kseries::report {
namespace {

using json = nlohmann::json;

// A timing cell of SERIES: its kernel (candidate) and the base, each with
// rebind samples around MEAN for fsdax-mem.
RunCell timing_cell(const std::string& series, double mean, double base_mean) {
  RunCell cell;
  cell.series = series;
  cell.cell = "pmem memmap-timing";
  cell.status = results::Outcome::k_pass;
  json samples = json::array();
  json base = json::array();
  for (int i = 0; i < 10; ++i) {
    samples.push_back(mean + (i % 3));
    base.push_back(base_mean + (i % 3));
  }
  cell.session = results::session_record_from(
      {{"kernels",
        {{series,
          {{"role", "candidate"},
           {"setups",
            {{"fsdax-mem", {{"memmap_init_vns", {{"rebinds", samples}, {"unit", "vns"}}}}}}}}},
         {"base",
          {{"role", "base"},
           {"setups",
            {{"fsdax-mem", {{"memmap_init_vns", {{"rebinds", base}, {"unit", "vns"}}}}}}}}}}},
       {"comparison", json::array({{{"setup", "fsdax-mem"}, {"metric", "memmap_init_vns"}}})}});
  return cell;
}

TEST(RevisionTimingTest, TheNewerRevisionAgainstTheOlderNotAgainstTheBase) {
  RunRecord run;
  run.cells.push_back(timing_cell("s/v6", 1000, 2000));
  run.cells.push_back(timing_cell("s/v10", 800, 2000));
  run.cells.push_back(timing_cell("other", 100, 2000));
  const auto timings = revision_timings(run, "s/v6", "s/v10");
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].cell, "pmem memmap-timing");
  EXPECT_EQ(timings[0].setup, "fsdax-mem");
  EXPECT_EQ(timings[0].unit, "vns");
  // v10 against v6, not v10 against the base (-60 %).
  EXPECT_NEAR(timings[0].comparison.relative_change, 801.0 / 1001.0 - 1, 1e-3);
  EXPECT_EQ(timings[0].comparison.verdict, stats::Verdict::k_faster);
  const std::string text = render_revision_timings(timings);
  EXPECT_NE(text.find("pmem memmap-timing fsdax-mem memmap_init_vns: -20.0%"), std::string::npos)
      << text;
  EXPECT_NE(text.find("faster"), std::string::npos) << text;
}

TEST(RevisionTimingTest, ACellOrSetupOnlyOneRevisionRanIsLeftOut) {
  RunRecord run;
  run.cells.push_back(timing_cell("s/v6", 1000, 2000));
  auto newer = timing_cell("s/v10", 1000, 2000);
  newer.cell = "kasan memmap-timing";
  run.cells.push_back(newer);
  EXPECT_TRUE(revision_timings(run, "s/v6", "s/v10").empty());
  run.cells.back().cell = "pmem memmap-timing";
  run.cells.back().session->comparison[0].setup = "devdax-mem";
  EXPECT_TRUE(revision_timings(run, "s/v6", "s/v10").empty());
  EXPECT_EQ(render_revision_timings({}), "");
}

TEST(RevisionTimingTest, CountsAreNotTimings) {
  RunRecord run;
  run.cells.push_back(timing_cell("s/v6", 1000, 2000));
  run.cells.push_back(timing_cell("s/v10", 800, 2000));
  for (auto& cell : run.cells) {
    cell.session->kernels[cell.series].setups["fsdax-mem"]["memmap_init_vns"].unit = "count";
  }
  EXPECT_TRUE(revision_timings(run, "s/v6", "s/v10").empty());
}

TEST(RevisionTimingTest, EqualRevisionsAreTheSame) {
  RunRecord run;
  run.cells.push_back(timing_cell("s/v6", 1000, 2000));
  run.cells.push_back(timing_cell("s/v10", 1000, 1500));
  const auto timings = revision_timings(run, "s/v6", "s/v10");
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].comparison.verdict, stats::Verdict::k_same);
}

}  // namespace
}  // namespace kseries::report
