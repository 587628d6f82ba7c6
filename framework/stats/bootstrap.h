#pragma once
// Percentile bootstrap: resampling with replacement from a seeded
// std::mt19937_64, so the same samples and seed give the same interval on
// every machine and standard library (the index draw is done here, not by
// std::uniform_int_distribution, whose algorithm the standard leaves open).

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace kseries::stats {

// "kseries!" in ASCII: the seed every bootstrap uses unless told otherwise.
inline constexpr std::uint64_t k_default_seed = 0x6b73657269657321ULL;
inline constexpr int k_default_resamples = 10000;
inline constexpr double k_default_confidence = 0.95;

struct BootstrapOptions {
  int resamples = k_default_resamples;
  std::uint64_t seed = k_default_seed;
  double confidence = k_default_confidence;  // two-sided, e.g. 0.95
};

// A closed interval [low, high].
struct Interval {
  double low = 0;
  double high = 0;

  bool contains(double value) const { return low <= value && value <= high; }
  double width() const { return high - low; }
};

// Draws indices and resampled means; one object per bootstrap run.
class Resampler {
 public:
  explicit Resampler(std::uint64_t seed) : m_engine(seed) {}

  // Uniform in [0, n), by rejection so that no index is favoured; n > 0.
  std::size_t index(std::size_t n);
  // The mean of n draws with replacement from samples (n = samples.size()).
  double resampled_mean(std::span<const double> samples);

 private:
  std::mt19937_64 m_engine;
};

// The type-7 (linear interpolation, R's default, numpy's "linear") quantile
// of already sorted values, p in [0, 1]; sorted must not be empty.
double quantile_of_sorted(std::span<const double> sorted, double p);

// The central `confidence` interval of a bootstrap distribution: its
// (1-c)/2 and (1+c)/2 type-7 quantiles. Sorts `statistics` in place; it must
// not be empty nor hold NaN.
Interval percentile_interval(std::vector<double>& statistics, double confidence);

// Percentile bootstrap interval of the mean; samples must not be empty.
Interval bootstrap_mean_interval(std::span<const double> samples,
                                 const BootstrapOptions& options = {});

// Percentile bootstrap interval of mean(candidate) / mean(base), each side
// resampled independently. A resample where both means are 0 counts as
// ratio 1 (no change); one where only the base mean is 0 counts as +inf, so
// the interval is unbounded rather than wrong. Neither side may be empty.
Interval bootstrap_ratio_interval(std::span<const double> base, std::span<const double> candidate,
                                  const BootstrapOptions& options = {});

// The same interval when the samples come in blocks that share a source of
// variance, e.g. the rebinds of one boot (BLOCKS: the block sizes, in
// order, summing to the sample size). Two-stage (cluster) bootstrap: draw
// blocks with replacement, then values with replacement inside each drawn
// block, so boot-to-boot variation widens the interval instead of being
// mistaken for an effect. One block per side reduces to the plain bootstrap.
Interval bootstrap_ratio_interval_blocked(std::span<const double> base,
                                          std::span<const std::size_t> base_blocks,
                                          std::span<const double> candidate,
                                          std::span<const std::size_t> candidate_blocks,
                                          const BootstrapOptions& options = {});

}  // namespace kseries::stats
