#pragma once
// Descriptive statistics of one set of timing samples (pr_debug ms, ftrace
// ns, bind durations): n, first, mean, median, trimmed mean, sample stddev,
// range and a percentile-bootstrap interval of the mean. Deterministic for a
// given seed.

#include <cstddef>
#include <span>

#include "stats/bootstrap.h"

namespace kseries::stats {

// Share cut from each end for the trimmed mean.
inline constexpr double k_trim_fraction = 0.10;

struct Summary {
  std::size_t n = 0;
  double first = 0;  // samples[0], as given: the caller decides what "first" is
  double mean = 0;
  double median = 0;        // the mean of the two middle values when n is even
  double trimmed_mean = 0;  // floor(0.1 n) values dropped from each end
  double stddev = 0;        // sample standard deviation (n - 1); 0 when n < 2
  double min = 0;
  double max = 0;
  Interval mean_interval;  // percentile bootstrap, options.confidence (95 %)
};

// Summarizes the samples exactly as given (the caller leaves out the first
// bind when it reports it apart). n == 0 gives a Summary with n = 0 and every
// other field 0; a NaN or infinite sample throws Error(k_usage) naming its
// index.
Summary summarize(std::span<const double> samples, const BootstrapOptions& options = {});

// The median (the mean of the two middle values when n is even); 0 for none.
double median(std::span<const double> samples);

// The mean with floor(fraction * n) values cut from each end of the sorted
// samples (scipy.stats.trim_mean's rounding). fraction in [0, 0.5).
double trimmed_mean(std::span<const double> samples, double fraction = k_trim_fraction);

}  // namespace kseries::stats
