#pragma once
// Base against candidate for one timing metric: ratio of means with a
// bootstrap interval, a Mann-Whitney p-value, and a verdict that needs both
// statistical separation and a material change. Samples are durations:
// smaller is faster.
//
// Verdict rules, applied in this order:
//  1. unknown  when either side has fewer than min_samples (5) values;
//  2. same     when both means are 0; unknown when only the base mean is 0
//              (no ratio: use a finer clock, e.g. ftrace ns);
//  3. "material" means |relative change| >= min_relative (3 %) AND
//     |candidate mean - base mean| >= min_absolute (0 by default; the caller
//     sets e.g. 2 timer ticks for pr_debug ms samples);
//     "separated" means the ratio interval excludes 1 AND p < alpha (0.05);
//  4. faster / slower  when separated and material (ratio < 1 / > 1), and
//     the interval clears between_boots (below); else unknown;
//  5. same     when separated but immaterial (the reason says "immaterial"),
//              or when the whole ratio interval lies inside
//              [1 - margin, 1 + margin], margin = max(min_relative,
//              min_absolute / base mean): every change the data allow is
//              immaterial by rule 3;
//  6. unknown  otherwise (interval too wide, or interval and p disagree).
// No single number ever decides: the reason names the ones that did.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stats/bootstrap.h"
#include "stats/mann_whitney.h"
#include "stats/summary.h"

namespace kseries::stats {

enum class Verdict { k_faster, k_slower, k_same, k_unknown };

std::string_view verdict_name(Verdict verdict);  // "faster", "slower", ...

struct CompareOptions {
  double min_relative = 0.03;  // materiality floor, relative to the base mean
  double min_absolute = 0;     // materiality floor, in the samples' unit
  double alpha = 0.05;         // rank-test level
  std::size_t min_samples = 5;
  BootstrapOptions bootstrap;  // for the summaries and the ratio interval
  // Block sizes (rebinds per boot, in sample order) of each side, when the
  // samples come from several boots: the ratio interval is then a two-stage
  // bootstrap over boots and rebinds (bootstrap_ratio_interval_blocked), and
  // with at least 2 boots a side the rank test compares boot means (the
  // independent units; 4 boots a side are needed to reach p < 0.05).
  // Empty: the samples are taken as independent.
  std::vector<std::size_t> base_blocks;
  std::vector<std::size_t> candidate_blocks;
  // For near-deterministic clocks (QEMU icount), > 0: when each side's boot
  // means agree within this fraction of their mean (or within min_absolute),
  // the boots are interchangeable and the rank test takes the rebinds as the
  // units; boots that disagree keep the boot-mean test, and the reason says
  // they disagree. 0: boots are never taken as interchangeable.
  double boot_agreement = 0;
  // > 0: how far apart single boots of one kernel can lie on this metric,
  // a variation the samples cannot show (one boot a side: every sample
  // shares its boot's conditions). A separated, material change is faster
  // or slower only when its interval's near end clears it; else unknown
  // ("boot again"). 0: the samples show all the variation there is.
  double between_boots = 0;
};

struct Comparison {
  Summary base;
  Summary candidate;
  double ratio = 1;            // candidate mean / base mean
  double relative_change = 0;  // ratio - 1: -0.6 is 60 % faster
  double difference = 0;       // candidate mean - base mean, samples' unit
  Interval ratio_interval;     // bootstrap, options.bootstrap.confidence
  RankTest rank_test;
  Verdict verdict = Verdict::k_unknown;
  std::string reason;  // one line, e.g. "-60.1% [-63.0%, -57.2%], p=0.0001"
  // With several boots a side and boot_agreement set: the largest spread of
  // boot means (max - min, relative to the mean) on either side, and whether
  // the boots agreed (the rebinds were then pooled for the rank test).
  double boot_spread = 0;
  bool boots_pooled = false;
};

// Compares and judges. Ratio and interval are NaN when the base mean is 0
// and the candidate's is not. Throws Error(k_usage) on a non-finite sample.
Comparison compare(std::span<const double> base, std::span<const double> candidate,
                   const CompareOptions& options = {});

}  // namespace kseries::stats
