#include "oracle/slow_path_work.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "stats/compare.h"
#include "stats/summary.h"

namespace kseries::oracle {

namespace {

double median(const std::vector<double>& values) { return stats::median(values); }

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", fraction * 100);
  return text;
}

std::string figures(const std::vector<double>& base, const std::vector<double>& candidate) {
  char text[160];
  std::snprintf(text, sizeof text, "median %.0f against the base's %.0f, %zu and %zu binds",
                median(candidate), median(base), candidate.size(), base.size());
  return text;
}

SetupVerdict inconclusive(const std::string& setup, const std::string& why) {
  return {setup, VerdictStatus::k_fail,
          "inconclusive: " + why + " (no evidence that the slow path ran is not a pass)", ""};
}

SetupVerdict judge_instructions(const std::string& setup, const std::vector<double>& base,
                                const std::vector<double>& candidate, double max_cut) {
  const double ratio = median(candidate) / median(base);
  const std::string facts = "memmap_init_zone_device() work " + percent(ratio - 1) +
                            " against the base (" + figures(base, candidate) +
                            ", virtual ns = instructions)";
  if (ratio < 1 - max_cut) {
    return {setup, VerdictStatus::k_fail,
            "the fast path ran: " + facts + ", more than the " + percent(-max_cut) +
                " the slow path allows",
            ""};
  }
  return {setup, VerdictStatus::k_pass, "slow path: " + facts, ""};
}

SetupVerdict judge_wall(const std::string& setup, const std::vector<double>& base,
                        const std::vector<double>& candidate, double max_cut) {
  const auto c = stats::compare(base, candidate);
  const std::string facts = "memmap_init_zone_device() time " + c.reason + ", " +
                            std::string(stats::verdict_name(c.verdict)) + " (wall clock)";
  if (c.verdict == stats::Verdict::k_faster && c.ratio_interval.high < 1 - max_cut) {
    return {setup, VerdictStatus::k_fail,
            "the fast path ran: " + facts + ", faster than the " + percent(-max_cut) +
                " the slow path allows",
            ""};
  }
  if (c.ratio_interval.low >= 1 - max_cut) {
    return {setup, VerdictStatus::k_pass, "slow path: " + facts, ""};
  }
  return inconclusive(setup, facts + ": the interval reaches below " + percent(-max_cut) +
                                 "; boot under --clock icount to decide");
}

}  // namespace

std::map<std::string, std::vector<double>> collect_slow_path_work(
    const std::vector<guest::Event>& events) {
  std::map<std::string, std::vector<double>> work;
  for (const auto& m : guest::measurements(events)) {
    if (m.metric == "memmap_init_ns" && m.kind == "work") {
      work[m.setup].push_back(m.value);
    }
  }
  return work;
}

SetupVerdict judge_slow_path_work(const std::string& setup, const std::vector<double>& base,
                                  const std::vector<double>& candidate, WorkClock clock,
                                  double max_cut) {
  if (base.empty() || candidate.empty()) {
    return inconclusive(setup, std::string("no memmap_init_zone_device() work measured for ") +
                                   (base.empty() ? "the base" : "the series"));
  }
  if (median(base) <= 0) {
    return inconclusive(setup, "the base's work measured as 0");
  }
  if (clock == WorkClock::k_instructions) {
    return judge_instructions(setup, base, candidate, max_cut);
  }
  return judge_wall(setup, base, candidate, max_cut);
}

}  // namespace kseries::oracle
