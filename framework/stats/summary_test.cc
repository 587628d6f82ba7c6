#include "stats/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"

namespace kseries::stats {
namespace {

// pr_debug-style ms timings: coarse, many ties.
// Sorted: 28 28 29 29 30 31 35 35 35 40; sum 320.
const std::vector<double> k_ms = {28, 28, 29, 35, 35, 35, 40, 31, 30, 29};

TEST(StatsSummaryTest, HandCheckedValuesOfQuantisedSamples) {
  const Summary s = summarize(k_ms);
  EXPECT_EQ(s.n, 10u);
  EXPECT_DOUBLE_EQ(s.first, 28);
  EXPECT_DOUBLE_EQ(s.mean, 32);
  EXPECT_DOUBLE_EQ(s.median, 30.5);  // (30 + 31) / 2
  // floor(0.1 * 10) = 1 cut from each end: (320 - 28 - 40) / 8.
  EXPECT_DOUBLE_EQ(s.trimmed_mean, 31.5);
  // Squared deviations 16 16 9 9 9 9 64 1 4 9 sum to 146; 146 / 9.
  EXPECT_NEAR(s.stddev, std::sqrt(146.0 / 9.0), 1e-12);
  EXPECT_DOUBLE_EQ(s.min, 28);
  EXPECT_DOUBLE_EQ(s.max, 40);
  EXPECT_TRUE(s.mean_interval.contains(32));
  EXPECT_GT(s.mean_interval.low, 29);
  EXPECT_LT(s.mean_interval.high, 35);
}

TEST(StatsSummaryTest, OddCountMedianAndNoTrimBelowTenSamples) {
  // The example: 28 28 29 35 35 35 40, sum 230.
  const std::vector<double> samples = {35, 28, 40, 29, 35, 28, 35};
  const Summary s = summarize(samples);
  EXPECT_DOUBLE_EQ(s.first, 35);
  EXPECT_DOUBLE_EQ(s.median, 35);
  EXPECT_DOUBLE_EQ(s.mean, 230.0 / 7);
  // floor(0.7) = 0: nothing is trimmed.
  EXPECT_DOUBLE_EQ(s.trimmed_mean, 230.0 / 7);
}

TEST(StatsSummaryTest, TrimmedMeanCutsFloorOfTenPercent) {
  // n = 25: floor(2.5) = 2 from each end; 1..25 with two outliers.
  std::vector<double> samples;
  for (int i = 1; i <= 23; ++i) {
    samples.push_back(i);
  }
  samples.push_back(1000);
  samples.push_back(-1000);
  // Sorted: -1000 1 2 ... 22 23 1000; cutting -1000, 1 and 23, 1000 leaves
  // 2..22, mean 12.
  EXPECT_DOUBLE_EQ(trimmed_mean(samples), 12);
  EXPECT_THROW(trimmed_mean(samples, 0.5), Error);
}

TEST(StatsSummaryTest, AllEqualSamplesHaveZeroSpread) {
  const std::vector<double> samples(12, 30.0);
  const Summary s = summarize(samples);
  EXPECT_DOUBLE_EQ(s.mean, 30);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.mean_interval.low, 30);
  EXPECT_DOUBLE_EQ(s.mean_interval.high, 30);
}

TEST(StatsSummaryTest, NanosecondSamplesKeepTheirPrecision) {
  // Large values with a small spread: a one-pass sum of squares would lose it.
  const std::vector<double> samples = {1e9 + 1, 1e9 + 2, 1e9 + 3};
  EXPECT_NEAR(summarize(samples).stddev, 1.0, 1e-9);
}

TEST(StatsSummaryTest, SingleAndNoSamples) {
  const Summary one = summarize(std::vector<double>{7});
  EXPECT_EQ(one.n, 1u);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
  EXPECT_DOUBLE_EQ(one.median, 7);
  const Summary none = summarize(std::vector<double>{});
  EXPECT_EQ(none.n, 0u);
  EXPECT_DOUBLE_EQ(none.mean, 0);
}

TEST(StatsSummaryTest, NonFiniteSampleIsRejectedWithItsIndex) {
  const std::vector<double> samples = {1, 2, std::numeric_limits<double>::quiet_NaN()};
  try {
    summarize(samples);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("sample 2"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace kseries::stats

namespace kseries::stats {
namespace {

TEST(MedianTest, TheMiddleValueOrTheMeanOfTheTwo) {
  EXPECT_EQ(median(std::vector<double>{}), 0);
  EXPECT_EQ(median(std::vector<double>{5, 1, 3}), 3);
  EXPECT_EQ(median(std::vector<double>{4, 1, 3, 2}), 2.5);
}

}  // namespace
}  // namespace kseries::stats
