#include "stats/bootstrap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"

namespace kseries::stats {
namespace {

TEST(BootstrapTest, QuantileInterpolatesLinearly) {
  const std::vector<double> sorted = {1, 2, 3, 4};
  // Type 7: position p (n - 1).
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.0), 1);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.25), 1.75);  // position 0.75
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.5), 2.5);    // position 1.5
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 1.0), 4);
  EXPECT_THROW(quantile_of_sorted(std::vector<double>{}, 0.5), Error);
}

TEST(BootstrapTest, PercentileIntervalOfAKnownDistribution) {
  // 0..1000 shuffled: the 2.5 % and 97.5 % type-7 quantiles sit exactly at
  // positions 25 and 975.
  std::vector<double> values;
  for (int i = 1000; i >= 0; --i) {
    values.push_back((i * 37) % 1001);
  }
  const Interval interval = percentile_interval(values, 0.95);
  EXPECT_NEAR(interval.low, 25, 1e-9);
  EXPECT_NEAR(interval.high, 975, 1e-9);
}

TEST(BootstrapTest, IndicesAreUniform) {
  Resampler resampler(42);
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 60000; ++i) {
    const std::size_t index = resampler.index(6);
    ASSERT_LT(index, 6u);
    ++counts[index];
  }
  // Binomial(60000, 1/6): mean 10000, sd 91; 450 is about 5 sd.
  for (int count : counts) {
    EXPECT_NEAR(count, 10000, 450);
  }
}

TEST(BootstrapTest, TwoPointSampleHasTheExactBootstrapInterval) {
  // Resampling {0, 1} twice gives means 0, 0.5, 1 with probability 1/4, 1/2,
  // 1/4: the 95 % interval is [0, 1] and the central 40 % is [0.5, 0.5].
  const std::vector<double> samples = {0, 1};
  const Interval wide = bootstrap_mean_interval(samples);
  EXPECT_DOUBLE_EQ(wide.low, 0);
  EXPECT_DOUBLE_EQ(wide.high, 1);
  const Interval narrow = bootstrap_mean_interval(samples, {10000, k_default_seed, 0.40});
  EXPECT_DOUBLE_EQ(narrow.low, 0.5);
  EXPECT_DOUBLE_EQ(narrow.high, 0.5);
}

TEST(BootstrapTest, MeanIntervalWidthMatchesNormalTheory) {
  // 1..30: mean 15.5, population sd 8.655; a 95 % interval of the mean is
  // about 2 * 1.96 * 8.655 / sqrt(30) = 6.19 wide.
  std::vector<double> samples;
  for (int i = 1; i <= 30; ++i) {
    samples.push_back(i);
  }
  const Interval interval = bootstrap_mean_interval(samples);
  EXPECT_TRUE(interval.contains(15.5));
  EXPECT_NEAR(interval.width(), 6.19, 0.5);
  EXPECT_NEAR((interval.low + interval.high) / 2, 15.5, 0.3);
}

TEST(BootstrapTest, SameSeedSameIntervalOtherSeedOtherInterval) {
  const std::vector<double> samples = {28, 28, 29, 35, 35, 35, 40, 31, 30, 29};
  const Interval first = bootstrap_mean_interval(samples, {2000, 7, 0.95});
  const Interval again = bootstrap_mean_interval(samples, {2000, 7, 0.95});
  const Interval other = bootstrap_mean_interval(samples, {2000, 8, 0.95});
  EXPECT_EQ(first.low, again.low);
  EXPECT_EQ(first.high, again.high);
  EXPECT_TRUE(first.low != other.low || first.high != other.high);
}

TEST(BootstrapTest, RatioOfConstantSidesIsExact) {
  const std::vector<double> base(8, 10.0);
  const std::vector<double> candidate(6, 12.0);
  const Interval interval = bootstrap_ratio_interval(base, candidate);
  EXPECT_DOUBLE_EQ(interval.low, 1.2);
  EXPECT_DOUBLE_EQ(interval.high, 1.2);
}

TEST(BootstrapTest, RatioWithZeroBaseIsUnboundedNotNaN) {
  // P(a resample of {0,0,0,0,1} is all zeros) = (4/5)^5 = 33 %: the upper
  // end is +inf. Both sides all zero count as ratio 1.
  const std::vector<double> base = {0, 0, 0, 0, 1};
  const std::vector<double> candidate = {1, 1, 1, 1, 1};
  const Interval interval = bootstrap_ratio_interval(base, candidate);
  EXPECT_EQ(interval.high, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(std::isnan(interval.low));
  const std::vector<double> zeros(5, 0.0);
  const Interval both = bootstrap_ratio_interval(zeros, zeros);
  EXPECT_DOUBLE_EQ(both.low, 1);
  EXPECT_DOUBLE_EQ(both.high, 1);
}

TEST(BootstrapTest, RejectsBadOptionsAndEmptySamples) {
  const std::vector<double> samples = {1, 2, 3};
  EXPECT_THROW(bootstrap_mean_interval(std::vector<double>{}), Error);
  EXPECT_THROW(bootstrap_mean_interval(samples, {0, 1, 0.95}), Error);
  EXPECT_THROW(bootstrap_mean_interval(samples, {100, 1, 1.0}), Error);
}

}  // namespace
}  // namespace kseries::stats

namespace kseries::stats {
namespace {

// Three boots per side whose boot means differ much more than rebinds within
// a boot: taken as independent samples the sides look separated, taken as
// boots they do not.
std::vector<double> boots_of(std::initializer_list<double> means, std::size_t per_boot) {
  std::vector<double> samples;
  for (const double mean : means) {
    for (std::size_t i = 0; i < per_boot; ++i) {
      samples.push_back(mean + (i % 2 == 0 ? 0.5 : -0.5));
    }
  }
  return samples;
}

TEST(BootstrapBlockedTest, BootToBootVariationWidensTheInterval) {
  const auto base = boots_of({100, 112, 94}, 20);
  const auto candidate = boots_of({90, 104, 88}, 20);
  const std::vector<std::size_t> blocks = {20, 20, 20};
  const Interval plain = bootstrap_ratio_interval(base, candidate);
  const Interval blocked = bootstrap_ratio_interval_blocked(base, blocks, candidate, blocks);
  EXPECT_FALSE(plain.contains(1.0)) << plain.low << " " << plain.high;
  EXPECT_TRUE(blocked.contains(1.0)) << blocked.low << " " << blocked.high;
  EXPECT_GT(blocked.width(), 3 * plain.width());
}

TEST(BootstrapBlockedTest, OneBlockPerSideIsThePlainBootstrapAndSizesMustAddUp) {
  const auto base = boots_of({100}, 30);
  const auto candidate = boots_of({80}, 30);
  const std::vector<std::size_t> one = {30};
  const Interval blocked = bootstrap_ratio_interval_blocked(base, one, candidate, one);
  EXPECT_NEAR(blocked.low, 0.8, 0.01);
  EXPECT_NEAR(blocked.high, 0.8, 0.01);
  const std::vector<std::size_t> wrong = {20};
  EXPECT_THROW(bootstrap_ratio_interval_blocked(base, wrong, candidate, one), Error);
}

}  // namespace
}  // namespace kseries::stats
