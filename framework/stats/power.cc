#include "stats/power.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/error.h"

namespace kseries::stats {

namespace {

void check_options(std::span<const double> base_runs, const PowerOptions& options) {
  if (base_runs.size() < 2) {
    throw usage_error("power: need at least 2 base samples to resample from");
  }
  if (options.samples_per_side < 1 || options.trials < 1) {
    throw usage_error("power: samples per side and trials must be at least 1");
  }
  if (!(options.min_effect >= 0 && options.min_effect <= options.max_effect)) {
    throw usage_error("power: need 0 <= min_effect <= max_effect");
  }
  if (!(options.target_power > 0 && options.target_power <= 1)) {
    throw usage_error("power: target power must lie in (0, 1]");
  }
  if (!(options.tolerance > 0) || options.quantum < 0) {
    throw usage_error("power: tolerance must be > 0 and quantum >= 0");
  }
}

// The draws of every trial, made once and replayed for each effect size.
class Trials {
 public:
  Trials(std::span<const double> base_runs, const PowerOptions& options)
      : m_base_runs(base_runs), m_options(options) {
    Resampler resampler(options.seed);
    const std::size_t n = options.samples_per_side;
    for (int t = 0; t < options.trials; ++t) {
      Draw draw;
      for (std::size_t i = 0; i < n; ++i) {
        draw.base.push_back(base_runs[resampler.index(base_runs.size())]);
      }
      for (std::size_t i = 0; i < n; ++i) {
        draw.candidate.push_back(base_runs[resampler.index(base_runs.size())]);
      }
      draw.bootstrap_seed = options.seed + 1 + static_cast<std::uint64_t>(t);
      m_draws.push_back(std::move(draw));
    }
  }

  double detection_rate(double effect) const {
    int slower = 0;
    std::vector<double> candidate;
    for (const Draw& draw : m_draws) {
      candidate.clear();
      for (double value : draw.candidate) {
        candidate.push_back(scaled(value, effect));
      }
      CompareOptions compare_options = m_options.compare;
      compare_options.bootstrap.seed = draw.bootstrap_seed;
      if (compare(draw.base, candidate, compare_options).verdict == Verdict::k_slower) {
        ++slower;
      }
    }
    return static_cast<double>(slower) / static_cast<double>(m_draws.size());
  }

 private:
  struct Draw {
    std::vector<double> base;
    std::vector<double> candidate;
    std::uint64_t bootstrap_seed = 0;
  };

  double scaled(double value, double effect) const {
    const double slowed = value * (1 + effect);
    if (m_options.quantum > 0) {
      return std::round(slowed / m_options.quantum) * m_options.quantum;
    }
    return slowed;
  }

  std::span<const double> m_base_runs;
  const PowerOptions& m_options;
  std::vector<Draw> m_draws;
};

std::string describe(const PowerEstimate& estimate, const PowerOptions& options) {
  char buffer[256];
  const int percent_power = static_cast<int>(std::lround(100 * options.target_power));
  if (estimate.detectable_change) {
    std::snprintf(buffer, sizeof buffer,
                  *estimate.detectable_change < 0.01
                      ? "n=%zu per side: smallest slowdown called slower in >= %d%% of %d trials: "
                        "%.2f%% (from %zu base samples; false slower at 0%%: %.1f%%)"
                      : "n=%zu per side: smallest slowdown called slower in >= %d%% of %d trials: "
                        "%.1f%% (from %zu base samples; false slower at 0%%: %.1f%%)",
                  options.samples_per_side, percent_power, options.trials,
                  100 * *estimate.detectable_change, estimate.base_samples,
                  100 * estimate.false_slower_rate);
  } else {
    std::snprintf(buffer, sizeof buffer,
                  "n=%zu per side: even a %.1f%% slowdown is called slower in only %.0f%% of %d "
                  "trials (from %zu base samples)",
                  options.samples_per_side, 100 * options.max_effect, 100 * estimate.power_at_max,
                  options.trials, estimate.base_samples);
  }
  return buffer;
}

}  // namespace

double detection_rate(std::span<const double> base_runs, double effect,
                      const PowerOptions& options) {
  check_options(base_runs, options);
  return Trials(base_runs, options).detection_rate(effect);
}

PowerEstimate estimate_power(std::span<const double> base_runs, const PowerOptions& options) {
  check_options(base_runs, options);
  const Trials trials(base_runs, options);
  PowerEstimate estimate;
  estimate.base_samples = base_runs.size();
  estimate.false_slower_rate = trials.detection_rate(0);
  estimate.power_at_max = trials.detection_rate(options.max_effect);
  if (estimate.power_at_max >= options.target_power) {
    double low = options.min_effect;  // detected below target, until shown otherwise
    double high = options.max_effect;
    if (trials.detection_rate(low) >= options.target_power) {
      high = low;
    }
    // Invariant: high is detected often enough, low is not.
    while (high - low > options.tolerance) {
      const double middle = (low + high) / 2;
      if (trials.detection_rate(middle) >= options.target_power) {
        high = middle;
      } else {
        low = middle;
      }
    }
    estimate.detectable_change = high;
  }
  estimate.summary = describe(estimate, options);
  return estimate;
}

}  // namespace kseries::stats
