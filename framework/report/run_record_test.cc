#include "report/run_record.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "results/gate_record.h"
#include "testing/temp_dir.h"

namespace kseries::report {
namespace {

// What the gate's store writes is what the renderers read back.
TEST(RunRecordTest, ReadsTheGateStoreAndEachCellsResults) {
  testing::TempDir tmp;
  const auto cell_dir = tmp.path() / "cells" / "v2-toy-demo";
  testing::put_file(cell_dir / "results.json",
                    R"({"case": "demo", "kernels": {"s/v2": {"role": "candidate"}}})");
  {
    results::CellStore store(tmp.path() / "gate.json");
    store.set_base(std::string(40, 'a'), "base/toy");
    store.describe({"s/v2", "/series/s/v2", {{"/series/s/v2/1.patch", "s: one", "ab"}}, {}});
    store.record({"s/v2",
                  "apply",
                  results::Outcome::k_pass,
                  "1 applied",
                  "",
                  0.5,
                  {{"patch.1.apply", "applied"}}});
    store.record({"s/v2",
                  "toy demo",
                  results::Outcome::k_fail,
                  "slower",
                  "slower\n",
                  9,
                  {{"run_dir", cell_dir.string()}}});
    store.record({"s/v2", "nopmem demo", results::Outcome::k_skip, "lacks pmem", "", 0, {}});
    store.judge({"s/v2",
                 results::Outcome::k_fail,
                 false,
                 {{results::ReasonKind::k_failed, "toy demo", "slower"}}});
    store.finish(results::Outcome::k_fail, {{"apply", 0.5}});
  }
  const auto run = load_run(tmp.path());
  EXPECT_EQ(run.kind, "gate");
  EXPECT_EQ(run.base_commit, std::string(40, 'a'));
  EXPECT_EQ(run.base_label, "base/toy");
  EXPECT_FALSE(run.started.empty());
  EXPECT_TRUE(run.finished);
  EXPECT_EQ(run.outcome, results::Outcome::k_fail);
  ASSERT_EQ(run.series.size(), 1u);
  EXPECT_EQ(run.series[0].patches[0].subject, "s: one");
  ASSERT_TRUE(run.series[0].verdict.has_value());
  EXPECT_EQ(run.series[0].verdict->outcome, results::Outcome::k_fail);
  EXPECT_EQ(results::reason_line(run.series[0].verdict->reasons.at(0)), "FAILED toy demo: slower");
  ASSERT_EQ(run.cells.size(), 3u);
  EXPECT_EQ(run.cells[0].property("patch.1.apply"), "applied");
  EXPECT_EQ(run.cells[1].status, results::Outcome::k_fail);
  EXPECT_EQ(run.cells[1].target(), "toy");
  EXPECT_EQ(run.cells[1].test_case(), "demo");
  ASSERT_TRUE(run.cells[1].session.has_value());
  EXPECT_EQ(run.cells[1].session->test_case, "demo");
  EXPECT_EQ(run.cells[1].session->kernels.at("s/v2").role, "candidate");
  EXPECT_FALSE(run.cells[2].session.has_value());
  EXPECT_TRUE(run.cells[1].booted);
  EXPECT_FALSE(run.cells[2].booted);
  ASSERT_EQ(run.time.size(), 1u);
}

TEST(RunRecordTest, AGateCutOffBeforeItsEndIsNotFinished) {
  testing::TempDir tmp;
  {
    results::CellStore store(tmp.path() / "gate.json");
    store.record({"s/v2", "apply", results::Outcome::k_pass, "", "", 0, {}});
  }
  const auto run = load_run(tmp.path());
  EXPECT_FALSE(run.finished);
  EXPECT_EQ(run.cells.size(), 1u);
}

TEST(RunRecordTest, ABootIsOneCellPerClock) {
  testing::TempDir tmp;
  testing::put_file(tmp.path() / "results.json",
                    R"({"target": "pmem", "case": "memmap-timing", "failed": true,
                        "kernels": {"base": {"role": "base", "commit": "abc"},
                                    "s/v6": {"role": "candidate"}}})");
  const auto run = load_run(tmp.path());
  EXPECT_EQ(run.kind, "boot");
  ASSERT_EQ(run.cells.size(), 1u);
  EXPECT_EQ(run.cells[0].cell, "pmem memmap-timing");
  EXPECT_EQ(run.cells[0].series, "s/v6");
  EXPECT_EQ(run.cells[0].status, results::Outcome::k_fail);
  EXPECT_EQ(run.outcome, results::Outcome::k_fail);
  EXPECT_EQ(run.base_commit, "abc");

  testing::TempDir both;
  testing::put_file(both.path() / "results.json",
                    R"({"icount": {"target": "pmem", "case": "memmap-timing"},
                        "wall": {"target": "pmem", "case": "memmap-timing"}})");
  const auto two = load_run(both.path());
  ASSERT_EQ(two.cells.size(), 2u);
  EXPECT_EQ(two.cells[1].cell, "pmem memmap-timing (wall)");
  EXPECT_EQ(two.cells[1].dir, both.path() / "wall");
  EXPECT_EQ(two.outcome, results::Outcome::k_pass);
}

TEST(RunRecordTest, NotARunDirectory) {
  testing::TempDir tmp;
  EXPECT_THROW(load_run(tmp.path()), Error);
}

}  // namespace
}  // namespace kseries::report
