#pragma once
// Power of a comparison setting: the smallest relative slowdown that
// compare() calls "slower" in at least 80 % of trials with n samples per
// side, estimated by resampling base-vs-base runs (no model of the noise is
// assumed: the machine's own noise is resampled).
//
// A trial draws two resamples of size n from the pooled base samples and
// scales the second by (1 + d). The same draws are reused for every d
// (common random numbers), so the detection rate grows smoothly with d and
// bisection on d is stable. Scaling an integer ms sample gives a non-integer;
// set `quantum` (e.g. 1 ms, one jiffy) to round the scaled values back to the
// timer's grid, or the estimate is optimistic for coarse clocks.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "stats/compare.h"

namespace kseries::stats {

struct PowerOptions {
  std::size_t samples_per_side = 30;  // n, the run's rebind count
  int trials = 200;                   // resampled comparisons per effect size
  double target_power = 0.80;         // share of trials that must say slower
  double min_effect = 0.01;           // the search range for d
  double max_effect = 0.50;
  double tolerance = 0.0025;  // bisection stops when the bracket is this narrow
  double quantum = 0;         // > 0: round scaled samples to multiples of it
  std::uint64_t seed = k_default_seed;
  // The rules each trial is judged by; 1000 bootstrap resamples keep a
  // trial cheap (a 95 % interval needs no more to sit within a few tenths of
  // a percent of the 10000-resample one).
  CompareOptions compare = [] {
    CompareOptions options;
    options.bootstrap.resamples = 1000;
    return options;
  }();
};

struct PowerEstimate {
  // The smallest d (a fraction, 0.05 = 5 %) detected in >= target_power of
  // the trials, to within tolerance; empty when even max_effect is not.
  std::optional<double> detectable_change;
  double power_at_max = 0;       // detection rate at max_effect
  double false_slower_rate = 0;  // "slower" rate at d = 0 (should be ~0)
  std::size_t base_samples = 0;  // pooled base samples resampled from
  std::string summary;           // one line for the README / a report
};

// Throws Error(k_usage) when base_runs has fewer than 2 values or the options
// are out of range (n < 1, trials < 1, min_effect > max_effect, ...).
PowerEstimate estimate_power(std::span<const double> base_runs, const PowerOptions& options = {});

// The share of trials in which compare() says slower at effect d (exposed
// for tests and for reporting a curve).
double detection_rate(std::span<const double> base_runs, double effect,
                      const PowerOptions& options = {});

}  // namespace kseries::stats
