#pragma once
// Two-sided Mann-Whitney U (Wilcoxon rank-sum) test: does one sample tend to
// hold larger values than the other? Rank-based, so it copes with the
// outliers of a noisy machine, and it handles the heavy ties of jiffies-
// quantised pr_debug timings.

#include <cstddef>
#include <span>
#include <string_view>

namespace kseries::stats {

enum class RankTestMethod {
  k_exact,       // the exact null distribution of U (no ties, a small side)
  k_asymptotic,  // normal approximation, tie and continuity corrected
};

struct RankTest {
  double u_base = 0;       // pairs (b, c) with b > c, ties counted 1/2
  double u_candidate = 0;  // pairs (b, c) with c > b, ties counted 1/2
  double p = 1;            // two-sided p-value in [0, 1]
  RankTestMethod method = RankTestMethod::k_asymptotic;
};

// Largest side size for which the exact distribution is used (when there
// are no ties and the smaller side is at most this): scipy's "auto" rule.
inline constexpr std::size_t k_exact_max_side = 8;

// The test of base against candidate. The exact method gives p = 2 P(U <=
// min(U_b, U_c)) under the null distribution (capped at 1). The asymptotic
// one uses z = (max(U_b, U_c) - n_b n_c / 2 - 1/2) / sigma with sigma^2 =
// n_b n_c / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) over the tie groups t,
// and p = 2 (1 - Phi(z)) capped at 1. When every value is equal (sigma = 0)
// or a side is empty there is no evidence of a shift: p = 1.
RankTest mann_whitney(std::span<const double> base, std::span<const double> candidate);

std::string_view rank_test_method_name(RankTestMethod method);

}  // namespace kseries::stats
