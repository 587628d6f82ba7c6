#include "stats/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace kseries::stats {
namespace {

// pr_debug ms timings (mean 32) and the same runs 40 % slower, rounded to
// whole ms as the jiffies clock would (sum 448, mean 44.8 = 1.4 x 32).
const std::vector<double> k_base_ms = {28, 28, 29, 35, 35, 35, 40, 31, 30, 29};
const std::vector<double> k_slower_ms = {39, 39, 41, 49, 49, 49, 56, 43, 42, 41};

bool mentions(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

// ftrace-like ns timings around 1 ms with a ~0.9 % spread, n = 30.
std::vector<double> quiet_ns() {
  std::vector<double> samples;
  for (int i = 0; i < 30; ++i) {
    samples.push_back(1'000'000 + 1'000 * ((i * 7) % 30));
  }
  return samples;
}

TEST(VerdictTest, ClearFortyPercentSlowdownIsSlower) {
  const Comparison c = compare(k_base_ms, k_slower_ms);
  EXPECT_DOUBLE_EQ(c.ratio, 1.4);
  EXPECT_NEAR(c.relative_change, 0.4, 1e-12);
  EXPECT_NEAR(c.difference, 12.8, 1e-12);
  EXPECT_GT(c.ratio_interval.low, 1.2);
  EXPECT_LT(c.ratio_interval.high, 1.6);
  EXPECT_LT(c.rank_test.p, 0.001);
  EXPECT_EQ(c.verdict, Verdict::k_slower) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "+40.0%")) << c.reason;
}

TEST(VerdictTest, SixtyPercentFasterIsFaster) {
  // The seed series' claim: 60 % less time.
  std::vector<double> faster;
  for (double value : k_base_ms) {
    faster.push_back(value * 0.4);
  }
  const Comparison c = compare(k_base_ms, faster);
  EXPECT_NEAR(c.relative_change, -0.6, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::k_faster) << c.reason;
}

TEST(VerdictTest, IdenticalDistributionsAreSame) {
  const std::vector<double> base = quiet_ns();
  const std::vector<double> candidate(base.rbegin(), base.rend());
  const Comparison c = compare(base, candidate);
  EXPECT_DOUBLE_EQ(c.ratio, 1);
  EXPECT_DOUBLE_EQ(c.rank_test.p, 1);
  EXPECT_GT(c.ratio_interval.low, 0.97);
  EXPECT_LT(c.ratio_interval.high, 1.03);
  EXPECT_EQ(c.verdict, Verdict::k_same) << c.reason;
}

TEST(VerdictTest, AllEqualSamplesAreSameWithoutDividingByZero) {
  const std::vector<double> same(10, 30.0);
  const Comparison c = compare(same, same);
  EXPECT_DOUBLE_EQ(c.rank_test.p, 1);
  EXPECT_DOUBLE_EQ(c.base.stddev, 0);
  EXPECT_EQ(c.verdict, Verdict::k_same) << c.reason;
  EXPECT_FALSE(mentions(c.reason, "nan")) << c.reason;
}

TEST(VerdictTest, ThreeSamplesAreUnknown) {
  const Comparison c = compare(std::vector<double>{30, 31, 30}, std::vector<double>{50, 52, 51});
  EXPECT_EQ(c.verdict, Verdict::k_unknown);
  EXPECT_TRUE(mentions(c.reason, "too few samples")) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "n=3")) << c.reason;
  // The numbers are still there for the report.
  EXPECT_NEAR(c.ratio, 51.0 / 30.333333333333333, 1e-12);
}

TEST(VerdictTest, SeparatedOnePercentChangeIsSameAndImmaterial) {
  std::vector<double> tight_base;
  std::vector<double> tight_candidate;
  for (int i = 0; i < 30; ++i) {
    tight_base.push_back(1'000'000 + 10 * i);
    tight_candidate.push_back(1'010'000 + 10 * i);  // +1 %, no overlap
  }
  const Comparison c = compare(tight_base, tight_candidate);
  EXPECT_FALSE(c.ratio_interval.contains(1.0));
  EXPECT_LT(c.rank_test.p, 1e-6);
  EXPECT_EQ(c.verdict, Verdict::k_same) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "immaterial")) << c.reason;
}

TEST(VerdictTest, AbsoluteFloorInTimerTicks) {
  // 30 ms vs 31 ms, every run: +3.3 % and perfectly separated, but 1 ms is
  // one jiffy. With a 2-tick floor it is immaterial; without one, slower.
  const std::vector<double> base(10, 30.0);
  const std::vector<double> candidate(10, 31.0);
  CompareOptions ticks;
  ticks.min_absolute = 2;
  const Comparison floored = compare(base, candidate, ticks);
  EXPECT_EQ(floored.verdict, Verdict::k_same) << floored.reason;
  EXPECT_TRUE(mentions(floored.reason, "immaterial")) << floored.reason;
  const Comparison unfloored = compare(base, candidate);
  EXPECT_EQ(unfloored.verdict, Verdict::k_slower) << unfloored.reason;
}

TEST(VerdictTest, WideIntervalIsUnknown) {
  // Bimodal, noisy runs; the candidate is +2 ms (+6.5 %) on each.
  const std::vector<double> base = {10, 50, 12, 48, 30, 11, 49, 31};
  const std::vector<double> candidate = {12, 52, 14, 50, 32, 13, 51, 33};
  const Comparison c = compare(base, candidate);
  EXPECT_NEAR(c.rank_test.p, 0.317712341338, 1e-9);  // exact; scipy agrees
  EXPECT_LT(c.ratio_interval.low, 0.8);
  EXPECT_EQ(c.verdict, Verdict::k_unknown) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "too wide")) << c.reason;
}

TEST(VerdictTest, ZeroMillisecondBaseHasNoRatio) {
  // A fast kernel under KVM may print "in 0 ms" for every bind.
  const std::vector<double> zeros(10, 0.0);
  const Comparison both = compare(zeros, zeros);
  EXPECT_EQ(both.verdict, Verdict::k_same) << both.reason;
  const std::vector<double> ones = {0, 1, 0, 1, 1, 0, 1, 0, 1, 1};
  const Comparison c = compare(zeros, ones);
  EXPECT_EQ(c.verdict, Verdict::k_unknown);
  EXPECT_TRUE(std::isnan(c.ratio));
  EXPECT_TRUE(mentions(c.reason, "base mean is 0")) << c.reason;
}

TEST(VerdictTest, AbsoluteFloorWidensTheSameMargin) {
  // 28 30 32 34 36 ms, six times each, on both sides (mean 32, sd 2.9):
  // the interval of the ratio is about +-4.5 %, wider than the 3 % floor, so
  // it is unknown; with a 2-tick floor (2/32 = 6.25 %) every change the data
  // allow is immaterial: same.
  std::vector<double> base;
  std::vector<double> candidate;
  for (int i = 0; i < 30; ++i) {
    base.push_back(28 + 2 * ((i * 7) % 5));
    candidate.push_back(28 + 2 * ((i + 1) % 5));
  }
  const Comparison plain = compare(base, candidate);
  EXPECT_EQ(plain.verdict, Verdict::k_unknown) << plain.reason;
  CompareOptions ticks;
  ticks.min_absolute = 2;
  const Comparison floored = compare(base, candidate, ticks);
  EXPECT_EQ(floored.verdict, Verdict::k_same) << floored.reason;
}

// The A/A case seen for real under load: four boots a side, boot means that
// happen to split (55 50 46 45 vs 42 42 42 47 ms) with little spread within a
// boot. As 120 independent rebinds a side they look separated; as boots
// they are not, and the verdict must not be faster.
TEST(VerdictTest, BootMeansNotRebindsDecideWhenThereAreSeveralBoots) {
  std::vector<double> base, again;
  for (double mean : {55.2, 50.0, 46.4, 44.7}) {
    for (int i = 0; i < 30; ++i) base.push_back(mean + (i % 3) - 1);
  }
  for (double mean : {41.8, 41.5, 42.1, 46.9}) {
    for (int i = 0; i < 30; ++i) again.push_back(mean + (i % 3) - 1);
  }
  CompareOptions options;
  const Comparison as_rebinds = compare(base, again, options);
  EXPECT_EQ(as_rebinds.verdict, Verdict::k_faster) << as_rebinds.reason;
  options.base_blocks = {30, 30, 30, 30};
  options.candidate_blocks = {30, 30, 30, 30};
  const Comparison as_boots = compare(base, again, options);
  EXPECT_EQ(as_boots.verdict, Verdict::k_unknown) << as_boots.reason;
  EXPECT_GT(as_boots.rank_test.p, 0.05);
}

TEST(VerdictTest, FourBootsASideThatAllSeparateGiveAVerdict) {
  std::vector<double> base, fast;
  for (double mean : {70, 74, 68, 72}) {
    for (int i = 0; i < 30; ++i) base.push_back(mean + (i % 3) - 1);
  }
  for (double mean : {38, 40, 37, 41}) {
    for (int i = 0; i < 30; ++i) fast.push_back(mean + (i % 3) - 1);
  }
  CompareOptions options;
  options.base_blocks = {30, 30, 30, 30};
  options.candidate_blocks = {30, 30, 30, 30};
  const Comparison c = compare(base, fast, options);
  EXPECT_EQ(c.verdict, Verdict::k_faster) << c.reason;
  EXPECT_LT(c.rank_test.p, 0.05);
}

// Instruction-clock (QEMU icount) samples: memmap_init_vns of one boot a
// side, spread ~0.02 % (as measured on the base pmem kernel), and a fast
// path 29.4 % cheaper. One boot a side decides, both ways.
std::vector<double> icount_boot(double mean, int seed) {
  std::vector<double> samples;
  for (int i = 0; i < 20; ++i) {
    samples.push_back(mean * (1 + 0.0002 * (((i * 7 + seed) % 5) - 2) / 2));
  }
  return samples;
}

CompareOptions icount_options() {
  CompareOptions options;
  options.min_relative = 0.0025;
  options.boot_agreement = 0.001;
  return options;
}

TEST(VerdictTest, IcountOneBootASideDecidesFasterAndSame) {
  const auto base = icount_boot(30'000'000, 0);
  const Comparison fast = compare(base, icount_boot(21'180'000, 1), icount_options());
  EXPECT_EQ(fast.verdict, Verdict::k_faster) << fast.reason;
  EXPECT_TRUE(mentions(fast.reason, "-29.4")) << fast.reason;
  const Comparison same = compare(base, icount_boot(30'000'000, 3), icount_options());
  EXPECT_EQ(same.verdict, Verdict::k_same) << same.reason;
  EXPECT_LT(same.ratio_interval.high - same.ratio_interval.low, 0.001) << same.reason;
  // 0.5 % more instructions is material under the icount floor (0.25 %).
  const Comparison slower = compare(base, icount_boot(30'150'000, 2), icount_options());
  EXPECT_EQ(slower.verdict, Verdict::k_slower) << slower.reason;
}

TEST(VerdictTest, IdenticalSamplesAreSameNotUnknown) {
  // Zero variance on both sides: no division by zero, no p = 1 unknown.
  const std::vector<double> constant(20, 524288);
  const Comparison c = compare(constant, constant, icount_options());
  EXPECT_EQ(c.verdict, Verdict::k_same) << c.reason;
  const std::vector<double> other(20, 400000);
  const Comparison d = compare(constant, other, icount_options());
  EXPECT_EQ(d.verdict, Verdict::k_faster) << d.reason;
}

// Two icount boots a side, their means given.
std::pair<std::vector<double>, std::vector<double>> two_boots_a_side(double base1, double base2,
                                                                     double fast1, double fast2) {
  auto base = icount_boot(base1, 0);
  const auto base_again = icount_boot(base2, 1);
  base.insert(base.end(), base_again.begin(), base_again.end());
  auto fast = icount_boot(fast1, 2);
  const auto fast_again = icount_boot(fast2, 3);
  fast.insert(fast.end(), fast_again.begin(), fast_again.end());
  return {base, fast};
}

TEST(VerdictTest, IcountBootsThatAgreePoolTheirRebinds) {
  // Two boots a side: as boot means the rank test cannot reach 0.05, but
  // under a deterministic clock agreeing boots are interchangeable.
  const auto [base, fast] = two_boots_a_side(30'000'000, 30'001'000, 21'180'000, 21'181'000);
  CompareOptions options = icount_options();
  options.base_blocks = {20, 20};
  options.candidate_blocks = {20, 20};
  const Comparison c = compare(base, fast, options);
  EXPECT_TRUE(c.boots_pooled);
  EXPECT_EQ(c.verdict, Verdict::k_faster) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "boots agree")) << c.reason;
  // The same boots without the agreement rule: boot means, p >= 0.05.
  options.boot_agreement = 0;
  EXPECT_EQ(compare(base, fast, options).verdict, Verdict::k_unknown);
}

TEST(VerdictTest, IcountBootsThatDisagreeAreNotPooled) {
  // The base's boots 3 % apart: something changed between them.
  const auto [base, fast] = two_boots_a_side(30'000'000, 31'000'000, 21'180'000, 21'181'000);
  CompareOptions options = icount_options();
  options.base_blocks = {20, 20};
  options.candidate_blocks = {20, 20};
  const Comparison c = compare(base, fast, options);
  EXPECT_FALSE(c.boots_pooled);
  EXPECT_EQ(c.verdict, Verdict::k_unknown) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "boots disagree")) << c.reason;
}

TEST(VerdictTest, NamesAreStable) {
  EXPECT_EQ(verdict_name(Verdict::k_faster), "faster");
  EXPECT_EQ(verdict_name(Verdict::k_slower), "slower");
  EXPECT_EQ(verdict_name(Verdict::k_same), "same");
  EXPECT_EQ(verdict_name(Verdict::k_unknown), "unknown");
}

}  // namespace
}  // namespace kseries::stats
