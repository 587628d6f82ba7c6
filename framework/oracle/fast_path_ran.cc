#include "oracle/fast_path_ran.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "stats/compare.h"
#include "stats/summary.h"

namespace kseries::oracle {

namespace {

double median(const std::vector<double>& values) { return stats::median(values); }

std::string figures(double share, const std::vector<double>& base,
                    const std::vector<double>& candidate, const char* unit) {
  char text[200];
  std::snprintf(text, sizeof text,
                "memmap_init_zone_device() work %+.2f %% against the base's in the fast bind "
                "(median %.0f against %.0f, %zu and %zu bind(s), %s)",
                (share - 1) * 100, median(candidate), median(base), candidate.size(), base.size(),
                unit);
  return text;
}

}  // namespace

FastPathEvidence fast_path_evidence(const std::vector<double>& base,
                                    const std::vector<double>& candidate, WorkClock clock) {
  if (base.empty() || candidate.empty()) {
    return {PathRan::k_inconclusive,
            std::string("no memmap_init_zone_device() work measured in the fast bind of ") +
                (base.empty() ? "the base kernel" : "the series kernel") +
                " (function_graph), so nothing shows that the series' code ran"};
  }
  if (median(base) <= 0) {
    return {PathRan::k_inconclusive, "the base's fast-bind work measured as 0"};
  }
  const double share = median(candidate) / median(base);
  if (clock == WorkClock::k_instructions) {
    const std::string facts = figures(share, base, candidate, "virtual ns = instructions");
    if (std::fabs(share - 1) <= k_same_work_share) {
      return {PathRan::k_did_not_run, facts};
    }
    return {PathRan::k_ran, facts};
  }
  const auto c = stats::compare(base, candidate);
  const std::string facts = figures(share, base, candidate, "wall clock") + ": " + c.reason;
  if (c.verdict == stats::Verdict::k_faster || c.verdict == stats::Verdict::k_slower) {
    return {PathRan::k_ran, facts};
  }
  if (c.ratio_interval.low >= 1 - k_same_work_share &&
      c.ratio_interval.high <= 1 + k_same_work_share) {
    return {PathRan::k_did_not_run, facts};
  }
  return {PathRan::k_inconclusive, facts + "; boot under --clock icount to decide"};
}

FastPathEvidence fast_path_from_counts(double fast, double slow) {
  char text[240];
  std::snprintf(text, sizeof text,
                "the fast bind called the slow path's __init_zone_device_page() %.0f time(s), "
                "the slow bind %.0f",
                fast, slow);
  if (slow <= 0) {
    return {PathRan::k_inconclusive, std::string(text) + " (nothing to compare with)"};
  }
  if (fast >= k_slow_share_when_not_run * slow) {
    return {PathRan::k_did_not_run, std::string(text) + ": every struct page took the slow path"};
  }
  return {PathRan::k_ran, text};
}

FastPathEvidence fast_path_from_counts_and_work(double fast, double slow,
                                                const FastPathEvidence& by_work) {
  auto by_count = fast_path_from_counts(fast, slow);
  if (by_count.ran == PathRan::k_did_not_run && by_work.ran == PathRan::k_ran) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "the fast and the slow bind called the slow path's __init_zone_device_page() "
                  "alike (%.0f and %.0f time(s)), but ",
                  fast, slow);
    return {PathRan::k_ran, text + by_work.facts +
                                ": the slow bind took the series' own path too, so the work "
                                "decides"};
  }
  by_count.facts += "; " + by_work.facts;
  return by_count;
}

SetupVerdict settle_with_evidence(SetupVerdict verdict, const FastPathEvidence& evidence,
                                  SlowPathContract contract) {
  switch (evidence.ran) {
    case PathRan::k_ran: {
      if (contract == SlowPathContract::k_tracepoint_on) {
        return {verdict.setup, VerdictStatus::k_fail,
                "the series' fast path ran while page_ref_set was on (" + evidence.facts +
                    "): its contract is the slow path whenever the tracepoint is on",
                verdict.details};
      }
      const char* note = contract == SlowPathContract::k_sanitizer
                             ? " (on a target whose contract keeps the series on the slow "
                               "path: sanitizer-gating judges that)"
                             : "";
      verdict.summary += "; fast path ran: " + evidence.facts + note;
      return verdict;
    }
    case PathRan::k_did_not_run:
      if (contract != SlowPathContract::k_none) {
        const char* why = contract == SlowPathContract::k_tracepoint_on
                              ? "while page_ref_set is on (it was on from boot: trace_event=)"
                              : "in a sanitizer build";
        return {verdict.setup, VerdictStatus::k_skip,
                std::string("not applicable: the series keeps to the slow path here, as its "
                            "contract says ") +
                    why + " (" + evidence.facts +
                    "), so fast vs slow compared the slow path with itself",
                verdict.details};
      }
      return {verdict.setup, VerdictStatus::k_fail,
              "error: the series' code did not run: " + evidence.facts + ": the comparison (" +
                  verdict.summary +
                  ") was of the slow path with itself; is the series' fast path in this "
                  "kernel, and taken?",
              verdict.details};
    case PathRan::k_inconclusive:
      break;
  }
  return {verdict.setup, VerdictStatus::k_fail,
          "inconclusive: " + evidence.facts + " (no evidence that the fast path ran is not a pass)",
          verdict.details};
}

SetupVerdict base_has_one_path(SetupVerdict verdict) {
  if (verdict.status != VerdictStatus::k_pass) {
    return verdict;
  }
  verdict.status = VerdictStatus::k_skip;
  verdict.summary =
      "not applicable: the base kernel has one path, so fast vs slow compares it "
      "with itself (" +
      verdict.summary + ")";
  return verdict;
}

}  // namespace kseries::oracle
