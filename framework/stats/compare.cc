#include "stats/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/error.h"

namespace kseries::stats {

namespace {

// One decimal, or three below 1 %: an instruction clock's changes and
// intervals are hundredths of a percent.
std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, std::abs(fraction) < 0.01 ? "%+.3f%%" : "%+.1f%%",
                100 * fraction);
  return buffer;
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

std::string p_text(double p) {
  char buffer[32];
  if (p < 0.0001) {
    return "p<0.0001";
  }
  std::snprintf(buffer, sizeof buffer, "p=%.2g", p);
  return buffer;
}

// The mean of each block (consecutive SIZES values) of SAMPLES.
std::vector<double> block_means(std::span<const double> samples,
                                const std::vector<std::size_t>& sizes) {
  std::vector<double> means;
  std::size_t at = 0;
  for (const std::size_t size : sizes) {
    if (size == 0 || at + size > samples.size()) {
      throw usage_error("compare: blocks do not match the samples");
    }
    double sum = 0;
    for (std::size_t i = at; i < at + size; ++i) {
      sum += samples[i];
    }
    means.push_back(sum / static_cast<double>(size));
    at += size;
  }
  if (at != samples.size()) {
    throw usage_error("compare: blocks do not match the samples");
  }
  return means;
}

// (max - min) / mean of VALUES; 0 for one value or a zero mean.
double relative_spread(const std::vector<double>& values) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  double sum = 0;
  for (const double v : values) {
    sum += v;
  }
  const double mean = sum / static_cast<double>(values.size());
  return mean == 0 ? 0 : (*high - *low) / std::abs(mean);
}

// Whether the boot means of one side agree: within boot_agreement of their
// mean, or within min_absolute (a timer tick) of each other.
bool boots_agree(const std::vector<double>& means, const CompareOptions& options) {
  const auto [low, high] = std::minmax_element(means.begin(), means.end());
  return relative_spread(means) <= options.boot_agreement ||
         (options.min_absolute > 0 && *high - *low <= options.min_absolute);
}

// "-60.1% [-63.0%, -57.2%], p=0.0001": the numbers every verdict rests on.
std::string evidence(const Comparison& c) {
  return percent(c.relative_change) + " [" + percent(c.ratio_interval.low - 1) + ", " +
         percent(c.ratio_interval.high - 1) + "], " + p_text(c.rank_test.p);
}

void judge(Comparison& c, const CompareOptions& options) {
  const double relative = std::abs(c.relative_change);
  const bool relative_material = relative >= options.min_relative;
  const bool absolute_material = std::abs(c.difference) >= options.min_absolute;
  const bool excludes_one = !c.ratio_interval.contains(1.0);
  const bool significant = c.rank_test.p < options.alpha;

  if (excludes_one && significant) {
    const double near_end = c.ratio < 1 ? 1 - c.ratio_interval.high : c.ratio_interval.low - 1;
    if (relative_material && absolute_material && near_end < options.between_boots) {
      c.verdict = Verdict::k_unknown;
      c.reason = "separated, but within what single boots of one kernel differ by (+-" +
                 number(100 * options.between_boots) + "%): " + evidence(c);
      return;
    }
    if (relative_material && absolute_material) {
      c.verdict = c.ratio < 1 ? Verdict::k_faster : Verdict::k_slower;
      c.reason = evidence(c);
      return;
    }
    c.verdict = Verdict::k_same;
    c.reason =
        "separated but immaterial: " + evidence(c) +
        (relative_material ? "; |difference| " + number(std::abs(c.difference)) + " < " +
                                 number(options.min_absolute)
                           : "; below the " + number(100 * options.min_relative) + "% floor");
    return;
  }

  const double margin =
      std::max(options.min_relative, options.min_absolute / std::abs(c.base.mean));
  if (c.ratio_interval.low >= 1 - margin && c.ratio_interval.high <= 1 + margin) {
    c.verdict = Verdict::k_same;
    c.reason = "interval inside +-" + number(100 * margin) + "%: " + evidence(c);
    return;
  }

  c.verdict = Verdict::k_unknown;
  if (excludes_one) {
    c.reason = "interval excludes 1 but the rank test does not separate: " + evidence(c);
  } else if (significant) {
    c.reason = "rank test separates but the interval includes 1: " + evidence(c);
  } else {
    c.reason = "interval too wide for +-" + number(100 * margin) + "%: " + evidence(c);
  }
}

}  // namespace

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::k_faster:
      return "faster";
    case Verdict::k_slower:
      return "slower";
    case Verdict::k_same:
      return "same";
    case Verdict::k_unknown:
      return "unknown";
  }
  return "?";
}

Comparison compare(std::span<const double> base, std::span<const double> candidate,
                   const CompareOptions& options) {
  Comparison c;
  c.base = summarize(base, options.bootstrap);
  c.candidate = summarize(candidate, options.bootstrap);
  // Several boots on each side: the boots are the independent units, so the
  // rank test compares boot means (4 boots a side are needed for p < 0.05).
  const bool by_blocks = options.base_blocks.size() >= 2 && options.candidate_blocks.size() >= 2;
  if (by_blocks) {
    const auto base_means = block_means(base, options.base_blocks);
    const auto candidate_means = block_means(candidate, options.candidate_blocks);
    c.boot_spread = std::max(relative_spread(base_means), relative_spread(candidate_means));
    c.boots_pooled = options.boot_agreement > 0 && boots_agree(base_means, options) &&
                     boots_agree(candidate_means, options);
    c.rank_test =
        c.boots_pooled ? mann_whitney(base, candidate) : mann_whitney(base_means, candidate_means);
  } else {
    c.rank_test = mann_whitney(base, candidate);
  }
  c.difference = c.candidate.mean - c.base.mean;
  const bool has_ratio = !base.empty() && !candidate.empty() && c.base.mean != 0;
  if (has_ratio) {
    c.ratio = c.candidate.mean / c.base.mean;
    c.relative_change = c.ratio - 1;
    c.ratio_interval =
        options.base_blocks.empty() || options.candidate_blocks.empty()
            ? bootstrap_ratio_interval(base, candidate, options.bootstrap)
            : bootstrap_ratio_interval_blocked(base, options.base_blocks, candidate,
                                               options.candidate_blocks, options.bootstrap);
  } else if (c.candidate.mean != 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    c.ratio = c.relative_change = nan;
    c.ratio_interval = {nan, nan};
  } else {
    c.ratio_interval = {1, 1};  // nothing, or zeros on both sides
  }

  if (base.size() < options.min_samples || candidate.size() < options.min_samples) {
    c.verdict = Verdict::k_unknown;
    c.reason = "too few samples: n=" + std::to_string(base.size()) + " base, " +
               std::to_string(candidate.size()) + " candidate, need " +
               std::to_string(options.min_samples) + " on each side";
  } else if (has_ratio) {
    judge(c, options);
    if (c.boots_pooled) {
      c.reason += "; boots agree within " + percent(c.boot_spread) + ", rebinds pooled";
    } else if (by_blocks && options.boot_agreement > 0) {
      c.reason += "; boots disagree (boot means " + percent(c.boot_spread) + " apart, bound " +
                  percent(options.boot_agreement) + "): boot means compared";
    }
  } else if (c.candidate.mean == 0) {
    c.verdict = Verdict::k_same;
    c.reason = "both means are 0";
  } else {
    c.verdict = Verdict::k_unknown;
    c.reason = "base mean is 0: no ratio (use a finer clock, e.g. ftrace ns)";
  }
  return c;
}

}  // namespace kseries::stats
