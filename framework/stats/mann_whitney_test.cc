#include "stats/mann_whitney.h"

#include <gtest/gtest.h>

#include <vector>

namespace kseries::stats {
namespace {

// Reference p-values: exact ones are counts over C(m+n, m) orderings, worked
// by hand below; all were also checked against
// scipy.stats.mannwhitneyu(candidate, base, alternative="two-sided")
// (scipy 1.10.1, default method "auto", continuity correction on).

TEST(MannWhitneyTest, ExactCompleteSeparationOfThree) {
  // Only 1 of C(6,3) = 20 orderings has U = 0: p = 2 / 20.
  const RankTest test = mann_whitney(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6});
  EXPECT_EQ(test.method, RankTestMethod::k_exact);
  EXPECT_DOUBLE_EQ(test.u_base, 0);
  EXPECT_DOUBLE_EQ(test.u_candidate, 9);
  EXPECT_NEAR(test.p, 0.1, 1e-12);
}

TEST(MannWhitneyTest, ExactCompleteSeparationOfFive) {
  // 1 of C(10,5) = 252: p = 2 / 252 = 0.0079365.
  const RankTest test =
      mann_whitney(std::vector<double>{6, 7, 8, 9, 10}, std::vector<double>{1, 2, 3, 4, 5});
  EXPECT_EQ(test.method, RankTestMethod::k_exact);
  EXPECT_DOUBLE_EQ(test.u_base, 25);
  EXPECT_DOUBLE_EQ(test.u_candidate, 0);
  EXPECT_NEAR(test.p, 2.0 / 252, 1e-12);
}

TEST(MannWhitneyTest, ExactInterleavedFourAndFour) {
  // U_base = 6 (3>2; 5>2,4; 7>2,4,6). The null counts of U for 4 vs 4 are
  // 1 1 2 3 5 5 7 7 8 7 7 5 5 3 2 1 1 (sum 70); P(U <= 6) = 24 / 70.
  const RankTest test =
      mann_whitney(std::vector<double>{1, 3, 5, 7}, std::vector<double>{2, 4, 6, 8});
  EXPECT_DOUBLE_EQ(test.u_base, 6);
  EXPECT_DOUBLE_EQ(test.u_candidate, 10);
  EXPECT_NEAR(test.p, 48.0 / 70, 1e-12);  // scipy: 0.685714285714
}

TEST(MannWhitneyTest, ExactWhenOneSideIsSmallAndNoTies) {
  std::vector<double> base;
  for (int i = 1; i <= 8; ++i) {
    base.push_back(i);
  }
  std::vector<double> candidate;
  for (int i = 3; i < 23; ++i) {
    candidate.push_back(i + 0.5);
  }
  const RankTest test = mann_whitney(base, candidate);
  EXPECT_EQ(test.method, RankTestMethod::k_exact);
  EXPECT_DOUBLE_EQ(test.u_candidate, 145);
  EXPECT_NEAR(test.p, 0.000391878652748, 1e-12);  // scipy
}

TEST(MannWhitneyTest, AsymptoticWithoutTiesForLargerSides) {
  const std::vector<double> base = {12.1, 14.3, 11.8, 13.0, 15.2, 12.7, 13.9, 14.8, 12.2, 13.4};
  const std::vector<double> candidate = {14.0, 15.9, 16.4, 13.7, 15.1,
                                         17.2, 14.6, 16.8, 15.5, 14.9};
  const RankTest test = mann_whitney(base, candidate);
  EXPECT_EQ(test.method, RankTestMethod::k_asymptotic);
  EXPECT_DOUBLE_EQ(test.u_candidate, 89);
  // z = (89 - 50 - 0.5) / sqrt(100 * 21 / 12) = 2.9104.
  EXPECT_NEAR(test.p, 0.00361051431233, 1e-9);  // scipy
}

TEST(MannWhitneyTest, SmallTiedSampleByHand) {
  // Pooled 1 1 2 2 3 3, mid-ranks 1.5 1.5 3.5 3.5 5.5 5.5: R_base = 6.5,
  // U_base = 6.5 - 6 = 0.5, U_candidate = 8.5. Tie term 3 (2^3 - 2) = 18;
  // sigma^2 = 9/12 (7 - 18/30) = 4.8; z = (8.5 - 4.5 - 0.5) / sqrt(4.8) =
  // 1.59752; p = 2 (1 - Phi(z)) = 0.110149.
  const RankTest test = mann_whitney(std::vector<double>{1, 1, 2}, std::vector<double>{2, 3, 3});
  EXPECT_EQ(test.method, RankTestMethod::k_asymptotic);
  EXPECT_DOUBLE_EQ(test.u_base, 0.5);
  EXPECT_DOUBLE_EQ(test.u_candidate, 8.5);
  EXPECT_NEAR(test.p, 0.110148924186, 1e-9);  // scipy
}

TEST(MannWhitneyTest, QuantisedMillisecondSamplesWithTies) {
  const std::vector<double> base = {28, 28, 29, 35, 35, 35, 40, 31, 30, 29};
  const std::vector<double> candidate = {30, 31, 33, 35, 38, 38, 40, 41, 36, 35};
  const RankTest test = mann_whitney(base, candidate);
  EXPECT_EQ(test.method, RankTestMethod::k_asymptotic);
  EXPECT_DOUBLE_EQ(test.u_base, 22.5);
  EXPECT_DOUBLE_EQ(test.u_candidate, 77.5);
  EXPECT_NEAR(test.p, 0.0392786996486, 1e-9);  // scipy
  // Symmetric in its arguments.
  const RankTest swapped = mann_whitney(candidate, base);
  EXPECT_DOUBLE_EQ(swapped.u_base, 77.5);
  EXPECT_NEAR(swapped.p, test.p, 1e-15);
}

TEST(MannWhitneyTest, AllEqualSamplesGivePOneWithoutDividingByZero) {
  const std::vector<double> same(6, 30.0);
  const RankTest test = mann_whitney(same, same);
  EXPECT_DOUBLE_EQ(test.p, 1);
  EXPECT_DOUBLE_EQ(test.u_base, 18);
  EXPECT_DOUBLE_EQ(test.u_candidate, 18);
}

TEST(MannWhitneyTest, TwoConstantSidesAreSeparated) {
  // 10 x 30 vs 10 x 31: tie term 2 (10^3 - 10) = 1980; sigma^2 = 100/12
  // (21 - 1980/380) = 131.58; z = (100 - 50 - 0.5) / 11.471 = 4.3153;
  // p = 1.594e-5.
  const RankTest test = mann_whitney(std::vector<double>(10, 30.0), std::vector<double>(10, 31.0));
  EXPECT_DOUBLE_EQ(test.u_candidate, 100);
  EXPECT_NEAR(test.p, 1.594e-5, 0.005e-5);
}

TEST(MannWhitneyTest, EmptySideHasNoEvidence) {
  const RankTest test = mann_whitney(std::vector<double>{}, std::vector<double>{1, 2});
  EXPECT_DOUBLE_EQ(test.p, 1);
}

}  // namespace
}  // namespace kseries::stats
