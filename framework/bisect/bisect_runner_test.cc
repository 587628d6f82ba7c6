#include "bisect/bisect_runner.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries::bisect {
namespace {

// One boot's rebinds of memmap_init under the instruction clock, scaled.
cases::TimingData timing(double scale, std::size_t rebinds = 10,
                         const std::string& metric = "memmap_init_vns") {
  cases::TimingData data;
  auto& samples = data[{"devdax-mem", metric}];
  samples.unit = "vns";
  for (std::size_t i = 0; i < rebinds; ++i) {
    samples.rebinds.push_back(scale * (1'000'000 + 100 * (i % 3)));
  }
  samples.rebind_blocks = {rebinds};
  return data;
}

bool mentions(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

TEST(JudgeTimingTest, SlowerFromTheThresholdFails) {
  const auto run = judge_timing(timing(1.0), timing(1.5), "memmap_init_vns", 0.05);
  EXPECT_EQ(run.outcome, RunOutcome::k_fail) << run.summary;
  EXPECT_TRUE(mentions(run.summary, "devdax-mem slower +50.0%")) << run.summary;
}

TEST(JudgeTimingTest, SlowerBelowTheThresholdPasses) {
  const auto run = judge_timing(timing(1.0), timing(1.5), "memmap_init_vns", 0.6);
  EXPECT_EQ(run.outcome, RunOutcome::k_pass) << run.summary;
  EXPECT_TRUE(mentions(run.summary, "(below the threshold +60.0%)")) << run.summary;
}

TEST(JudgeTimingTest, FasterAndSamePass) {
  EXPECT_EQ(judge_timing(timing(1.0), timing(0.6), "memmap_init_vns", 0).outcome,
            RunOutcome::k_pass);
  EXPECT_EQ(judge_timing(timing(1.0), timing(1.0), "memmap_init_vns", 0).outcome,
            RunOutcome::k_pass);
}

TEST(JudgeTimingTest, TooFewSamplesAreUnknownUntilPooled) {
  auto base = timing(1.0, 3);
  auto candidate = timing(1.5, 3);
  const auto first = judge_timing(base, candidate, "memmap_init_vns", 0);
  EXPECT_EQ(first.outcome, RunOutcome::k_unknown) << first.summary;
  EXPECT_TRUE(mentions(first.summary, "too few samples")) << first.summary;
  // A second boot a side, pooled: enough to decide.
  pool_timing(base, timing(1.0, 3));
  pool_timing(candidate, timing(1.5, 3));
  EXPECT_EQ(base.at({"devdax-mem", "memmap_init_vns"}).rebinds.size(), 6u);
  EXPECT_EQ(base.at({"devdax-mem", "memmap_init_vns"}).rebind_blocks,
            (std::vector<std::size_t>{3, 3}));
  EXPECT_EQ(judge_timing(base, candidate, "memmap_init_vns", 0).outcome, RunOutcome::k_fail);
}

TEST(JudgeTimingTest, EitherClocksSpellingNamesTheMetric) {
  EXPECT_EQ(judge_timing(timing(1.0), timing(1.5), "memmap_init_ns", 0).outcome,
            RunOutcome::k_fail);
  const auto wall = timing(1.0, 10, "memmap_init_ns");
  EXPECT_EQ(judge_timing(wall, timing(1.5, 10, "memmap_init_ns"), "memmap_init_vns", 0).outcome,
            RunOutcome::k_fail);
}

TEST(JudgeTimingTest, AMetricNotMeasuredIsAUsageError) {
  try {
    judge_timing(timing(1.0), timing(1.5), "bind_ns", 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    EXPECT_TRUE(mentions(e.what(), "the case measured memmap_init_vns")) << e.what();
  }
}

}  // namespace
}  // namespace kseries::bisect
