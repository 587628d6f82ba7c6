#include "stats/power.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"

namespace kseries::stats {
namespace {

// Base-vs-base runs: 60 values in a uniform spread of +-width around center.
std::vector<double> runs(double center, double width) {
  std::vector<double> samples;
  for (int i = 0; i < 60; ++i) {
    samples.push_back(center - width + 2 * width * ((i * 37) % 60) / 59.0);
  }
  return samples;
}

PowerOptions cheap(std::size_t n) {
  PowerOptions options;
  options.samples_per_side = n;
  options.trials = 100;
  options.compare.bootstrap.resamples = 400;
  return options;
}

TEST(StatsPowerTest, QuietRunsAreLimitedByTheMaterialityFloor) {
  // +-1 % noise with n = 30: any slowdown past the 3 % floor is seen, none
  // below it may be called slower.
  const PowerEstimate estimate = estimate_power(runs(1e6, 1e4), cheap(30));
  ASSERT_TRUE(estimate.detectable_change.has_value()) << estimate.summary;
  EXPECT_GE(*estimate.detectable_change, 0.03);
  EXPECT_LE(*estimate.detectable_change, 0.035);
  EXPECT_DOUBLE_EQ(estimate.false_slower_rate, 0);
  EXPECT_DOUBLE_EQ(estimate.power_at_max, 1);
  EXPECT_EQ(estimate.base_samples, 60u);
}

TEST(StatsPowerTest, NoisyRunsWithFewSamplesNeedALargeChange) {
  // +-30 % uniform noise (sd 17 %) with n = 10: the standard error of the
  // ratio is about 0.17 * sqrt(2 / 10) = 7.7 %, so 80 % power needs roughly
  // (1.96 + 0.84) * 7.7 % = 22 %.
  const PowerEstimate estimate = estimate_power(runs(30, 9), cheap(10));
  ASSERT_TRUE(estimate.detectable_change.has_value()) << estimate.summary;
  EXPECT_GT(*estimate.detectable_change, 0.12);
  EXPECT_LT(*estimate.detectable_change, 0.35);
}

TEST(StatsPowerTest, MoreSamplesDetectSmallerChanges) {
  const std::vector<double> noisy = runs(30, 9);
  const PowerEstimate few = estimate_power(noisy, cheap(10));
  const PowerEstimate many = estimate_power(noisy, cheap(30));
  ASSERT_TRUE(few.detectable_change && many.detectable_change);
  EXPECT_LT(*many.detectable_change, *few.detectable_change);
}

TEST(StatsPowerTest, UndetectableWithinRangeSaysSo) {
  PowerOptions options = cheap(5);
  options.max_effect = 0.05;
  const PowerEstimate estimate = estimate_power(runs(30, 9), options);
  EXPECT_FALSE(estimate.detectable_change.has_value());
  EXPECT_LT(estimate.power_at_max, 0.8);
  EXPECT_NE(estimate.summary.find("only"), std::string::npos) << estimate.summary;
}

TEST(StatsPowerTest, QuantumRoundsSlowdownsToTheTimerGrid) {
  // 30 ms every run. At a 1 ms quantum a slowdown d shows only once
  // 30 (1 + d) rounds to 31 ms (d >= 1.67 %), and then it shows as +3.3 %,
  // past the 3 % floor; without the quantum, +2 % stays +2 %: immaterial.
  const std::vector<double> constant(20, 30.0);
  PowerOptions options = cheap(10);
  options.quantum = 1;
  EXPECT_DOUBLE_EQ(detection_rate(constant, 0.02, options), 1);   // 30.6 -> 31
  EXPECT_DOUBLE_EQ(detection_rate(constant, 0.015, options), 0);  // 30.45 -> 30
  options.quantum = 0;
  EXPECT_DOUBLE_EQ(detection_rate(constant, 0.02, options), 0);  // 30.6: +2 %, immaterial
}

TEST(StatsPowerTest, DeterministicForASeed) {
  const std::vector<double> noisy = runs(30, 9);
  PowerOptions options = cheap(10);
  options.trials = 40;
  EXPECT_EQ(estimate_power(noisy, options).detectable_change,
            estimate_power(noisy, options).detectable_change);
}

TEST(StatsPowerTest, RejectsBadInput) {
  EXPECT_THROW(estimate_power(std::vector<double>{1}), Error);
  PowerOptions options;
  options.min_effect = 0.6;
  EXPECT_THROW(estimate_power(runs(30, 9), options), Error);
}

}  // namespace
}  // namespace kseries::stats
