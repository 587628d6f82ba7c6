#include "gate/shard.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

using testing::put_file;
using testing::TempDir;

ResolvedMatrix resolved(const std::string& text, const std::string& file) {
  return resolve_matrix(parse_matrix(text, file), testing::source_dir() / "kernel-configs",
                        std::nullopt);
}

ResolvedMatrix default_matrix() {
  return resolved(
      "per-patch: pmem\n"
      "cell: pmem memmap-timing\n"
      "cell: pmem memmap-types\n"
      "cell: kasan memmap-equivalence\n"
      "cell: kasan sanitizer-gating\n"
      "cell: kmsan sanitizer-gating\n",
      "m/default.matrix");
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ShardTest, OneJobPerTargetPlusTheSeriesJobEveryCellOnce) {
  TempDir dir;
  const auto plan = make_plan(default_matrix(), load_plan_series({dir / "demo"}), 2);
  ASSERT_EQ(plan.jobs.size(), 4u);
  EXPECT_EQ(plan.jobs[0].id, "series");
  EXPECT_EQ(plan.jobs[0].cells, (std::vector<std::string>{"apply", "checkpatch"}));
  EXPECT_EQ(plan.jobs[1].id, "target pmem");
  // The per-patch builds go with the target's boots: no other shard builds pmem.
  EXPECT_EQ(plan.jobs[1].cells, (std::vector<std::string>{"per-patch pmem", "pmem memmap-timing",
                                                          "pmem memmap-types"}));
  EXPECT_EQ(plan.jobs[2].id, "target kasan");
  EXPECT_EQ(plan.jobs[3].id, "target kmsan");
  EXPECT_EQ(plan.cells.size(), 8u);
  for (const auto& cell : plan.cells) {
    EXPECT_GE(plan.shard_of(cell), 1) << cell;
  }
  EXPECT_EQ(plan.shard_of("pmem no-such-case"), 0);
}

// The coverage cells and the coverage stage that reads their cover files
// run on one shard, whichever targets they boot.
TEST(ShardTest, TheCoverageCellsAndTheirStageAreOneJob) {
  TempDir dir;
  const auto matrix = resolved(
      "cell: pmem memmap-timing\ncell: pmem-coverage memmap-equivalence\n"
      "cell: kasan-coverage memmap-equivalence\n",
      "m/c.matrix");
  EXPECT_EQ(matrix.coverage_targets, (std::vector<std::string>{"pmem-coverage", "kasan-coverage"}));
  const auto plan = make_plan(matrix, load_plan_series({dir / "demo"}), 3);
  ASSERT_EQ(plan.jobs.size(), 3u);
  EXPECT_EQ(plan.jobs[2].id, "coverage");
  EXPECT_EQ(plan.jobs[2].cells,
            (std::vector<std::string>{"pmem-coverage memmap-equivalence",
                                      "kasan-coverage memmap-equivalence", "coverage"}));
  EXPECT_EQ(plan.shard_of("coverage"), plan.shard_of("kasan-coverage memmap-equivalence"));
}

TEST(ShardTest, TheJobsFollowFromTheMatrixAloneNotTheSeries) {
  // What lets `gate --shard` take its share before it loads (names) any
  // series: each series source is read once, by the gate.
  TempDir dir;
  put_file(dir / "demo/expect", "fail: pmem memmap-types: _refcount\n");
  const auto named = make_plan(default_matrix(), load_plan_series({dir / "demo", dir / "x"}), 3);
  const auto unnamed = make_plan(default_matrix(), {}, 3);
  EXPECT_EQ(unnamed.cells, named.cells);
  ASSERT_EQ(unnamed.jobs.size(), named.jobs.size());
  for (std::size_t i = 0; i < named.jobs.size(); ++i) {
    EXPECT_EQ(unnamed.jobs[i].cells, named.jobs[i].cells);
    EXPECT_EQ(unnamed.jobs[i].shard, named.jobs[i].shard);
  }
  EXPECT_NE(unnamed.id, named.id);  // the id does cover the series
}

TEST(ShardTest, LongestJobFirstOntoTheLeastLoadedShard) {
  TempDir dir;
  const auto plan = make_plan(default_matrix(), load_plan_series({dir / "demo"}), 2);
  // pmem (3 cells) -> 1 (loads 3, 0); series (2) -> 2 (3, 2); kasan (2, after
  // series: ties in plan order) -> 2 (3, 4); kmsan (1) -> 1 (4, 4).
  EXPECT_EQ(plan.jobs[1].shard, 1);
  EXPECT_EQ(plan.jobs[0].shard, 2);
  EXPECT_EQ(plan.jobs[2].shard, 2);
  EXPECT_EQ(plan.jobs[3].shard, 1);
}

TEST(ShardTest, SamePlanOnEveryMachineAndTheIdCoversWhatMatters) {
  TempDir a, b;
  put_file(a / "demo/expect", "fail: pmem memmap-types: _refcount\n");
  put_file(b / "demo/expect", "fail: pmem memmap-types: _refcount\n");
  const auto plan = make_plan(default_matrix(), load_plan_series({a / "demo"}), 3);
  // Another checkout of the same series: the directory is not the identity.
  const auto again = make_plan(default_matrix(), load_plan_series({b / "demo"}), 3);
  EXPECT_EQ(plan.id, again.id);
  EXPECT_EQ(plan.id.size(), 16u);
  EXPECT_NE(plan.id, make_plan(default_matrix(), load_plan_series({a / "demo"}), 2).id);
  EXPECT_NE(plan.id,
            make_plan(default_matrix(), load_plan_series({a / "demo", a / "other"}), 3).id);
  put_file(b / "demo/expect", "fail: pmem memmap-types: something else\n");
  EXPECT_NE(plan.id, make_plan(default_matrix(), load_plan_series({b / "demo"}), 3).id);
  auto other = default_matrix();
  other.cells.pop_back();
  EXPECT_NE(plan.id, make_plan(other, load_plan_series({a / "demo"}), 3).id);
}

TEST(ShardTest, MoreShardsThanJobsLeavesShardsEmpty) {
  TempDir dir;
  const auto plan = make_plan(resolved("cell: pmem memmap-timing\n", "q.matrix"),
                              load_plan_series({dir / "demo"}), 3);
  std::set<int> used;
  for (const auto& job : plan.jobs) {
    used.insert(job.shard);
  }
  EXPECT_EQ(used, (std::set<int>{1, 2}));
}

TEST(ShardTest, PlanJsonRoundTripsAndAnEditedPlanIsRefused) {
  TempDir dir;
  put_file(dir / "demo/expect", "fail: kasan memmap-equivalence: differs\n");
  const auto plan = make_plan(default_matrix(), load_plan_series({dir / "demo"}), 3);
  auto json = plan_json(plan);
  ASSERT_EQ(json["shards"].size(), 3u);
  EXPECT_EQ(json["shards"][1]["shard"], "2/3");
  const auto back = plan_from_json(json);
  EXPECT_EQ(back.id, plan.id);
  EXPECT_EQ(back.cells, plan.cells);
  ASSERT_EQ(back.series.size(), 1u);
  EXPECT_EQ(back.series[0].expect.value_or(""), "fail: kasan memmap-equivalence: differs\n");
  for (const auto& cell : plan.cells) {
    EXPECT_EQ(back.shard_of(cell), plan.shard_of(cell));
  }
  json["jobs"][0]["shard"] = 3 - json["jobs"][0]["shard"].get<int>();
  json["cells"].push_back("pmem extra");
  EXPECT_NE(error_of([&] { plan_from_json(json); }).find("does not match"), std::string::npos);
  EXPECT_NE(error_of([&] { plan_from_json(nlohmann::json::object()); }).find("not a kseries plan"),
            std::string::npos);
}

// per-patch-timing builds and boots its target: that target's job. The
// revision-regression cell is in the plan but in no job: the merge runs it
// over every shard's timing, with the policy the plan carries.
TEST(ShardTest, PerPatchTimingIsItsTargetsAndRevisionRegressionTheMerges) {
  TempDir dir;
  const auto plan =
      make_plan(resolved("cell: pmem memmap-timing\nper-patch-timing: kasan memmap-timing\n"
                         "revision-regression: max=10 memmap_init_vns\n",
                         "m/t.matrix"),
                load_plan_series({dir / "demo"}), 2);
  EXPECT_EQ(plan.cells, (std::vector<std::string>{"apply", "checkpatch", "pmem memmap-timing",
                                                  "per-patch-timing kasan memmap-timing",
                                                  "revision-regression"}));
  ASSERT_EQ(plan.jobs.size(), 3u);
  EXPECT_EQ(plan.jobs[2].id, "target kasan");
  EXPECT_GE(plan.shard_of("per-patch-timing kasan memmap-timing"), 1);
  EXPECT_EQ(plan.shard_of("revision-regression"), 0);
  ASSERT_TRUE(plan.revision_regression.has_value());
  const auto back = plan_from_json(plan_json(plan));
  ASSERT_TRUE(back.revision_regression.has_value());
  EXPECT_DOUBLE_EQ(back.revision_regression->max_percent, 10);
  EXPECT_EQ(back.revision_regression->metric.value_or(""), "memmap_init_vns");
  EXPECT_EQ(back.revision_regression->line, 3);
  EXPECT_EQ(back.matrix_file, "m/t.matrix");
  EXPECT_EQ(back.id, plan.id);
}

TEST(ShardTest, ShareKeepsOnlyItsOwnExpectations) {
  TempDir dir;
  const auto plan = make_plan(default_matrix(), load_plan_series({dir / "demo"}), 2);
  const Share share{plan, plan.shard_of("kasan memmap-equivalence")};
  auto expectations = parse_expectations(
      "fail: kasan memmap-equivalence: differs\nfail: pmem memmap-types: _refcount\n", "expect");
  share.restrict(expectations);
  ASSERT_EQ(expectations.fails.size(), 1u);
  EXPECT_EQ(expectations.fails[0].cell, "kasan memmap-equivalence");
}

TEST(ShardTest, ShardSpecIsIOverN) {
  EXPECT_EQ(parse_shard_spec("2/3").index, 2);
  EXPECT_EQ(parse_shard_spec("2/3").count, 3);
  EXPECT_EQ(parse_shard_spec("1/1").count, 1);
  for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/3x", "/3", "1/"}) {
    EXPECT_NE(error_of([&] { parse_shard_spec(bad); }), "") << bad;
  }
}

}  // namespace
}  // namespace kseries::gate
