#include "stats/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace kseries::stats {

namespace {

struct Ranked {
  double rank_sum_base = 0;
  double tie_term = 0;  // sum over tie groups of t^3 - t
  bool has_ties = false;
};

// Mid-ranks (1-based) of the pooled samples: tied values share the mean of
// the ranks they span.
Ranked rank(std::span<const double> base, std::span<const double> candidate) {
  std::vector<std::pair<double, bool>> pooled;  // (value, is_base)
  pooled.reserve(base.size() + candidate.size());
  for (double value : base) {
    pooled.emplace_back(value, true);
  }
  for (double value : candidate) {
    pooled.emplace_back(value, false);
  }
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Ranked ranked;
  std::size_t start = 0;
  while (start < pooled.size()) {
    std::size_t end = start + 1;
    while (end < pooled.size() && pooled[end].first == pooled[start].first) {
      ++end;
    }
    const double t = static_cast<double>(end - start);
    // Ranks start+1 .. end; their mean:
    const double mid_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (std::size_t i = start; i < end; ++i) {
      if (pooled[i].second) {
        ranked.rank_sum_base += mid_rank;
      }
    }
    if (t > 1) {
      ranked.has_ties = true;
      ranked.tie_term += t * t * t - t;
    }
    start = end;
  }
  return ranked;
}

// P(U <= u) for a side of size m against one of size n, no ties: the number
// of orderings with U = k, f(i, j, k) = f(i-1, j, k-j) + f(i, j-1, k)
// (the largest value belongs to the first side, beating all j, or to the
// second), over C(m+n, m) equally likely orderings.
double exact_cdf(std::size_t m, std::size_t n, double u) {
  const std::size_t cells = m * n + 1;
  // row[j][k] holds f(i, j, k) for the current i.
  std::vector<std::vector<double>> row(n + 1, std::vector<double>(cells, 0));
  for (std::size_t j = 0; j <= n; ++j) {
    row[j][0] = 1;  // i = 0: one ordering, U = 0
  }
  for (std::size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> next(n + 1, std::vector<double>(cells, 0));
    next[0][0] = 1;  // j = 0: one ordering, U = 0
    for (std::size_t j = 1; j <= n; ++j) {
      for (std::size_t k = 0; k < cells; ++k) {
        const double x_largest = k >= j ? row[j][k - j] : 0;
        next[j][k] = x_largest + next[j - 1][k];
      }
    }
    row = std::move(next);
  }
  double total = 0;
  double at_most = 0;
  for (std::size_t k = 0; k < cells; ++k) {
    total += row[n][k];
    if (static_cast<double>(k) <= u) {
      at_most += row[n][k];
    }
  }
  return at_most / total;
}

}  // namespace

std::string_view rank_test_method_name(RankTestMethod method) {
  switch (method) {
    case RankTestMethod::k_exact:
      return "exact";
    case RankTestMethod::k_asymptotic:
      return "asymptotic";
  }
  return "?";
}

RankTest mann_whitney(std::span<const double> base, std::span<const double> candidate) {
  RankTest test;
  const auto n_base = static_cast<double>(base.size());
  const auto n_candidate = static_cast<double>(candidate.size());
  if (base.empty() || candidate.empty()) {
    return test;
  }
  const Ranked ranked = rank(base, candidate);
  test.u_base = ranked.rank_sum_base - n_base * (n_base + 1) / 2;
  test.u_candidate = n_base * n_candidate - test.u_base;
  const double u_small = std::min(test.u_base, test.u_candidate);
  const double u_large = std::max(test.u_base, test.u_candidate);

  if (!ranked.has_ties && std::min(base.size(), candidate.size()) <= k_exact_max_side) {
    test.method = RankTestMethod::k_exact;
    test.p = std::min(1.0, 2 * exact_cdf(base.size(), candidate.size(), u_small));
    return test;
  }

  test.method = RankTestMethod::k_asymptotic;
  const double total = n_base + n_candidate;
  const double variance =
      n_base * n_candidate / 12 * ((total + 1) - ranked.tie_term / (total * (total - 1)));
  if (!(variance > 0)) {
    test.p = 1;  // every value tied: no ordering at all
    return test;
  }
  const double z = (u_large - n_base * n_candidate / 2 - 0.5) / std::sqrt(variance);
  // 2 (1 - Phi(z)) = erfc(z / sqrt 2); z < 0 (U at its mean) gives p > 1.
  test.p = std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);
  return test;
}

}  // namespace kseries::stats
