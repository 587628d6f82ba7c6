#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.h"

namespace kseries::stats {

namespace {

void check_finite(std::span<const double> samples) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i])) {
      throw usage_error("sample " + std::to_string(i) + " is not a finite number");
    }
  }
}

double mean_of(std::span<const double> values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// Two-pass: subtracting the mean first keeps ns-sized values from losing
// their digits in a sum of squares.
double sample_stddev(std::span<const double> values, double mean) {
  if (values.size() < 2) {
    return 0;
  }
  double squares = 0;
  for (double value : values) {
    squares += (value - mean) * (value - mean);
  }
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

}  // namespace

double trimmed_mean(std::span<const double> samples, double fraction) {
  if (samples.empty()) {
    throw usage_error("trimmed mean of an empty sample");
  }
  if (!(fraction >= 0 && fraction < 0.5)) {
    throw usage_error("trimmed mean: the fraction cut from each end must lie in [0, 0.5)");
  }
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const auto cut =
      static_cast<std::size_t>(std::floor(fraction * static_cast<double>(sorted.size())));
  return mean_of(std::span<const double>(sorted).subspan(cut, sorted.size() - 2 * cut));
}

Summary summarize(std::span<const double> samples, const BootstrapOptions& options) {
  check_finite(samples);
  Summary summary;
  if (samples.empty()) {
    return summary;
  }
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  summary.n = samples.size();
  summary.first = samples.front();
  summary.mean = mean_of(samples);
  summary.median = quantile_of_sorted(sorted, 0.5);
  summary.trimmed_mean = trimmed_mean(samples);
  summary.stddev = sample_stddev(samples, summary.mean);
  summary.min = sorted.front();
  summary.max = sorted.back();
  summary.mean_interval = bootstrap_mean_interval(samples, options);
  return summary;
}

double median(std::span<const double> samples) {
  if (samples.empty()) {
    return 0;
  }
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  return quantile_of_sorted(sorted, 0.5);
}

}  // namespace kseries::stats
