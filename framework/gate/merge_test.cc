#include "gate/merge.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

using testing::put_file;
using testing::TempDir;

// Two series, good and bad (known-bad: kasan must fail with "differs"),
// on three shards, each shard's run directory written as `gate --shard` does.
class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    put_file(m_dir / "series/bad/expect", "fail: kasan memmap-equivalence: differs\n");
    m_matrix = resolve_matrix(
        parse_matrix("per-patch: pmem\ncell: pmem memmap-timing\ncell: kasan memmap-equivalence\n",
                     "m/toy.matrix"),
        testing::source_dir() / "kernel-configs", std::nullopt);
    m_plan =
        make_plan(m_matrix, load_plan_series({m_dir / "series/good", m_dir / "series/bad"}), 3);
  }

  results::CellResult cell(const std::string& series, const std::string& name,
                           results::Outcome status, const std::string& detail = "") const {
    return {series, name, status, name + " " + results::outcome_name(status), detail, 1, {}};
  }

  // Every cell of the plan, with bad's kasan cell failing as expected.
  std::vector<results::CellResult> all_cells() const {
    std::vector<results::CellResult> cells;
    for (const char* series : {"good", "bad"}) {
      for (const auto& name : m_plan.cells) {
        const bool fails = std::string(series) == "bad" && name == "kasan memmap-equivalence";
        cells.push_back(cell(series, name,
                             fails ? results::Outcome::k_fail : results::Outcome::k_pass,
                             fails ? "fast path differs from slow path" : ""));
      }
    }
    return cells;
  }

  std::filesystem::path shard(int index, const std::vector<results::CellResult>& cells,
                              const Plan* plan = nullptr, bool finished = true,
                              const std::string& base = "abc") {
    const Plan& p = plan ? *plan : m_plan;
    const auto dir = m_dir / ("run-" + std::to_string(m_runs++));
    std::filesystem::create_directories(dir);
    results::CellStore store(dir / "gate.json");
    for (const auto& c : cells) {
      if (p.shard_of(c.cell) == index) {
        store.record(c);
      }
    }
    write_shard_record({p, index, base, dir, {}, finished});
    return dir;
  }

  std::string error_of(const std::vector<std::filesystem::path>& dirs) {
    try {
      merge_shards(dirs);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::k_usage);
      return e.what();
    }
    return "";
  }

  TempDir m_dir;
  ResolvedMatrix m_matrix;
  Plan m_plan;
  int m_runs = 0;
};

TEST_F(MergeTest, ThreeShardsGiveTheSingleMachineVerdictInTheGateOrder) {
  const auto cells = all_cells();
  // In reverse order: the merge orders the cells as the gate runs them.
  const auto merged = merge_shards({shard(3, cells), shard(2, cells), shard(1, cells)});
  ASSERT_EQ(merged.gate.cells.size(), cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(merged.gate.cells[i].series + " " + merged.gate.cells[i].cell,
              cells[i].series + " " + cells[i].cell);
  }
  ASSERT_EQ(merged.gate.verdicts.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto single = judge_series(merged.gate.verdicts[i].series, cells,
                                     series_expectations(m_plan.series[i]), m_plan.cells);
    EXPECT_EQ(merged.gate.verdicts[i].outcome, single.outcome);
    ASSERT_EQ(merged.gate.verdicts[i].reasons.size(), single.reasons.size());
    for (std::size_t r = 0; r < single.reasons.size(); ++r) {
      EXPECT_EQ(results::reason_line(merged.gate.verdicts[i].reasons[r]),
                results::reason_line(single.reasons[r]));
    }
  }
  EXPECT_EQ(merged.gate.verdicts[1].outcome, results::Outcome::k_xfail);
  EXPECT_TRUE(merged.gate.ok());
  EXPECT_EQ(merged.base, "abc");
}

TEST_F(MergeTest, ExpectationsAreJudgedAfterMerging) {
  auto cells = all_cells();
  // The known-bad revision's kasan cell passes: the shard that ran it cannot
  // know (its expectation belongs to the merge), the merge must fail it.
  for (auto& c : cells) {
    if (c.series == "bad" && c.cell == "kasan memmap-equivalence") {
      c = cell("bad", c.cell, results::Outcome::k_pass);
    }
  }
  const auto merged = merge_shards({shard(1, cells), shard(2, cells), shard(3, cells)});
  EXPECT_FALSE(merged.gate.ok());
  EXPECT_FALSE(merged.gate.verdicts[1].ok());
  EXPECT_TRUE(merged.gate.verdicts[0].ok());
}

// The merge runs the after-series cells a single gate runs at its end, with
// the matrix's policy from the plan: each series gets its
// revision-regression cell (skip: no earlier revision of it was timed), and
// no shard holds one.
TEST_F(MergeTest, TheMergeRunsTheAfterSeriesCellsWithThePlansPolicy) {
  const auto matrix = resolve_matrix(
      parse_matrix("cell: pmem memmap-timing\nrevision-regression: max=5\n", "m/r.matrix"),
      testing::source_dir() / "kernel-configs", std::nullopt);
  const auto plan =
      make_plan(matrix, load_plan_series({m_dir / "series/good", m_dir / "series/bad"}), 2);
  std::vector<results::CellResult> cells;
  for (const char* series : {"good", "bad"}) {
    for (const char* name : {"apply", "checkpatch", "pmem memmap-timing"}) {
      cells.push_back(cell(series, name, results::Outcome::k_pass));
    }
  }
  const auto merged = merge_shards({shard(1, cells, &plan), shard(2, cells, &plan)});
  std::vector<std::string> regression;
  for (const auto& c : merged.gate.cells) {
    if (c.cell == "revision-regression") {
      regression.push_back(c.series + " " + results::outcome_name(c.status));
      EXPECT_EQ(c.properties.at("policy.line"), "m/r.matrix:2");
    }
  }
  EXPECT_EQ(regression, (std::vector<std::string>{"good skip", "bad skip"}));
  EXPECT_EQ(merged.gate.cells.back().cell, "revision-regression");
}

TEST_F(MergeTest, PathsUnderAMovedShardDirectoryPointWhereItIsNow) {
  // Each shard's directory copied elsewhere (CI artifacts) after it ran.
  std::vector<std::filesystem::path> dirs;
  for (int i = 1; i <= 3; ++i) {
    const auto ran = m_dir / ("ran-" + std::to_string(i));
    std::filesystem::create_directories(ran);
    results::CellStore store(ran / "gate.json");
    store.describe({"good", "good.mbox", {{(ran / "patches/1.patch").string(), "s", "ab"}}, {}});
    for (auto c : all_cells()) {
      if (m_plan.shard_of(c.cell) == i) {
        c.properties["run_dir"] = (ran / "cells" / c.cell).string();
        c.properties["elsewhere"] = "/srv/ci/cells/" + c.cell;
        store.record(c);
      }
    }
    write_shard_record({m_plan, i, "abc", ran, {}, true});
    dirs.push_back(m_dir / ("artifacts-" + std::to_string(i)));
    std::filesystem::rename(ran, dirs.back());
  }
  const auto merged = merge_shards(dirs);
  ASSERT_EQ(merged.gate.cells.size(), all_cells().size());
  for (const auto& c : merged.gate.cells) {
    const auto now = dirs[static_cast<std::size_t>(m_plan.shard_of(c.cell) - 1)];
    EXPECT_EQ(c.properties.at("run_dir"), (now / "cells" / c.cell).string());
    EXPECT_EQ(c.properties.at("elsewhere"), "/srv/ci/cells/" + c.cell);  // not under it: kept
  }
  // The series records are the apply shard's; a series it did not describe
  // still has one (its name, no patches).
  ASSERT_EQ(merged.series.size(), 2u);
  ASSERT_EQ(merged.series[0].patches.size(), 1u);
  EXPECT_EQ(
      merged.series[0].patches[0].file,
      (dirs[static_cast<std::size_t>(m_plan.shard_of("apply") - 1)] / "patches/1.patch").string());
  EXPECT_EQ(merged.series[1].series, "bad");
  EXPECT_TRUE(merged.series[1].patches.empty());
}

TEST_F(MergeTest, AMissingShardIsAnError) {
  const auto cells = all_cells();
  EXPECT_NE(error_of({shard(1, cells), shard(3, cells)}).find("2/3 missing"), std::string::npos);
}

TEST_F(MergeTest, ADuplicatedShardIsAnError) {
  const auto cells = all_cells();
  const auto two = shard(2, cells);
  EXPECT_NE(error_of({shard(1, cells), two, shard(3, cells), two}).find("2/3 given twice"),
            std::string::npos);
  EXPECT_NE(error_of({shard(1, cells), shard(2, cells), shard(3, cells), shard(2, cells)})
                .find("given twice"),
            std::string::npos);
}

TEST_F(MergeTest, ShardsOfDifferentPlansOrBasesDoNotMerge) {
  const auto cells = all_cells();
  auto other_matrix = m_matrix;
  other_matrix.cells.pop_back();
  const auto other =
      make_plan(other_matrix, load_plan_series({m_dir / "series/good", m_dir / "series/bad"}), 3);
  EXPECT_NE(
      error_of({shard(1, cells), shard(2, cells, &other), shard(3, cells)}).find("different plans"),
      std::string::npos);
  const auto fewer = make_plan(m_matrix, load_plan_series({m_dir / "series/good"}), 3);
  EXPECT_NE(
      error_of({shard(1, cells), shard(2, cells, &fewer), shard(3, cells)}).find("different plans"),
      std::string::npos);
  EXPECT_NE(error_of({shard(1, cells), shard(2, cells, nullptr, true, "def"), shard(3, cells)})
                .find("against base def"),
            std::string::npos);
}

TEST_F(MergeTest, AnUnfinishedShardIsAnError) {
  const auto cells = all_cells();
  EXPECT_NE(error_of({shard(1, cells), shard(2, cells, nullptr, false), shard(3, cells)})
                .find("did not finish"),
            std::string::npos);
}

TEST_F(MergeTest, ACellOfAnotherShardOrTwiceIsAnError) {
  const auto cells = all_cells();
  const auto one = shard(1, cells);
  // Shard 1's store gains a cell the plan gives to another shard.
  const std::string foreign = m_plan.shard_of("apply") == 1 ? "kasan memmap-equivalence" : "apply";
  ASSERT_NE(m_plan.shard_of(foreign), 1);
  results::CellStore store(one / "gate.json");
  for (auto& c : results::load_cells(one / "gate.json")) {
    store.record(c);
  }
  store.record(cell("good", foreign, results::Outcome::k_pass));
  EXPECT_NE(error_of({one, shard(2, cells), shard(3, cells)}).find("which plan"),
            std::string::npos);
}

TEST_F(MergeTest, ASeriesWithNoCellAnywhereIsAnError) {
  auto cells = all_cells();
  std::erase_if(cells, [](const results::CellResult& c) { return c.series == "bad"; });
  EXPECT_NE(
      error_of({shard(1, cells), shard(2, cells), shard(3, cells)}).find("series bad has no cell"),
      std::string::npos);
}

}  // namespace
}  // namespace kseries::gate
