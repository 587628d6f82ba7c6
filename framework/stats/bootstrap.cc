#include "stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace kseries::stats {

namespace {

void check_options(const BootstrapOptions& options) {
  if (options.resamples < 1) {
    throw usage_error("bootstrap: resamples must be at least 1");
  }
  if (!(options.confidence > 0 && options.confidence < 1)) {
    throw usage_error("bootstrap: confidence must lie strictly between 0 and 1");
  }
}

double ratio_of_means(double candidate_mean, double base_mean) {
  if (base_mean == 0) {
    // 0/0 would be NaN and break the sort; equal zeros mean no change.
    return candidate_mean == 0 ? 1.0 : std::numeric_limits<double>::infinity();
  }
  return candidate_mean / base_mean;
}

}  // namespace

std::size_t Resampler::index(std::size_t n) {
  // Lemire's multiply-and-shift with rejection: exactly uniform, and a
  // division only on the rare rejection path (this is the bootstrap's loop).
  const std::uint64_t range = n;
  unsigned __int128 product = static_cast<unsigned __int128>(m_engine()) * range;
  auto low = static_cast<std::uint64_t>(product);
  if (low < range) {
    const std::uint64_t threshold = (0 - range) % range;  // 2^64 mod range
    while (low < threshold) {
      product = static_cast<unsigned __int128>(m_engine()) * range;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::size_t>(product >> 64);
}

double Resampler::resampled_mean(std::span<const double> samples) {
  double sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    sum += samples[index(samples.size())];
  }
  return sum / static_cast<double>(samples.size());
}

double quantile_of_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) {
    throw usage_error("quantile of an empty sample");
  }
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  if (fraction == 0 || sorted[lower] == sorted[upper]) {
    // Also keeps inf - inf (an unbounded ratio) from turning into NaN.
    return sorted[lower];
  }
  return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

Interval percentile_interval(std::vector<double>& statistics, double confidence) {
  std::sort(statistics.begin(), statistics.end());
  const double tail = (1 - confidence) / 2;
  return {quantile_of_sorted(statistics, tail), quantile_of_sorted(statistics, 1 - tail)};
}

Interval bootstrap_mean_interval(std::span<const double> samples, const BootstrapOptions& options) {
  check_options(options);
  if (samples.empty()) {
    throw usage_error("bootstrap of an empty sample");
  }
  Resampler resampler(options.seed);
  std::vector<double> means;
  means.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    means.push_back(resampler.resampled_mean(samples));
  }
  return percentile_interval(means, options.confidence);
}

Interval bootstrap_ratio_interval(std::span<const double> base, std::span<const double> candidate,
                                  const BootstrapOptions& options) {
  check_options(options);
  if (base.empty() || candidate.empty()) {
    throw usage_error("bootstrap of an empty sample");
  }
  Resampler resampler(options.seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    const double base_mean = resampler.resampled_mean(base);
    const double candidate_mean = resampler.resampled_mean(candidate);
    ratios.push_back(ratio_of_means(candidate_mean, base_mean));
  }
  return percentile_interval(ratios, options.confidence);
}

namespace {

// The block boundaries of SAMPLES; throws when the sizes do not add up.
std::vector<std::span<const double>> split_blocks(std::span<const double> samples,
                                                  std::span<const std::size_t> sizes) {
  std::vector<std::span<const double>> blocks;
  std::size_t at = 0;
  for (const std::size_t size : sizes) {
    if (size == 0 || at + size > samples.size()) {
      throw usage_error("bootstrap blocks do not match the samples");
    }
    blocks.push_back(samples.subspan(at, size));
    at += size;
  }
  if (at != samples.size() || blocks.empty()) {
    throw usage_error("bootstrap blocks do not match the samples");
  }
  return blocks;
}

double resampled_blocked_mean(Resampler& resampler,
                              const std::vector<std::span<const double>>& blocks) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto& block = blocks[resampler.index(blocks.size())];
    for (std::size_t i = 0; i < block.size(); ++i) {
      sum += block[resampler.index(block.size())];
    }
    n += block.size();
  }
  return sum / static_cast<double>(n);
}

}  // namespace

Interval bootstrap_ratio_interval_blocked(std::span<const double> base,
                                          std::span<const std::size_t> base_blocks,
                                          std::span<const double> candidate,
                                          std::span<const std::size_t> candidate_blocks,
                                          const BootstrapOptions& options) {
  check_options(options);
  const auto base_split = split_blocks(base, base_blocks);
  const auto candidate_split = split_blocks(candidate, candidate_blocks);
  Resampler resampler(options.seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    const double base_mean = resampled_blocked_mean(resampler, base_split);
    const double candidate_mean = resampled_blocked_mean(resampler, candidate_split);
    ratios.push_back(ratio_of_means(candidate_mean, base_mean));
  }
  return percentile_interval(ratios, options.confidence);
}

}  // namespace kseries::stats
