#pragma once
// Bisecting a series: the first patch at which a check fails, found by
// testing series prefixes (prefix k = the base with the first k patches
// applied; prefix 0 is the base) the way git's bisect.c halves a range, but
// with each step decided from repeated runs, because boots are flaky. Pure:
// a Bisection says which prefix to run next and judges the runs it is given
// (bisect/bisect_runner.h runs them), so every path is unit-tested without a
// kernel.
//
// Phases: the tip first (it must fail, else there is nothing to bisect;
// only the build check then hunts for a break a later patch fixed), then
// halving between the last good and the first bad prefix, then the
// confirmation: the culprit's prefix and the one before it, each decided
// once more. A culprit is named only when the confidence reaches the
// policy's threshold; otherwise the result is inconclusive, with the reason.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::bisect {

// What one run at a prefix checks, from cheapest to dearest:
//  k_apply   the prefix applies onto the base;
//  k_build   the target builds at the prefix;
//  k_boot    the kernel boots the case cleanly (no panic/oops/WARN, the case
//            ran every setup); the case's own verdicts are not looked at;
//  k_case    the whole case passes: boot, the guest's results, the oracle;
//  k_timing  the case's metric is not slower than a reference's (below).
enum class BisectCheck { k_apply, k_build, k_boot, k_case, k_timing };

// What a timing step compares its prefix with. A series may pay for a
// refactor early and win it back later (zone-device-memmap v6: 2/8 costs
// +16 % instructions on devdax-mem, its template patches win it back), so
// "slower than the base" is not the question a regression bisect asks:
//  k_last_good  the last prefix judged good (the base at first): a prefix is
//               bad when it is a step slower than the last known-good state
//               (the default). The culprit is a patch that alone slows the
//               metric by the threshold: prefix K against prefix K-1. A
//               bad verdict holds only against the good prefix it was
//               judged against; when the last good prefix moves up, a bad
//               prefix judged against an older one is judged again before it
//               is named, so a step slower than the base but not than its
//               predecessor is never named. A slowdown that builds up in steps each below
//               the threshold is inconclusive ("gradual"), not pinned on one.
//  k_base       the base, for every prefix (the first prefix slower than the
//               unpatched kernel; --against base).
//  k_against    prefix K of a reference revision known to be good (--against
//               DIR|MBOX, e.g. the previous revision of the same series), for
//               the same K: the first patch at which this revision is slower
//               than the good one. A prefix whose tree equals the reference's
//               (patches the two revisions share) is good without a boot.
enum class TimingReference { k_last_good, k_base, k_against };
std::string timing_reference_name(TimingReference reference);

std::string bisect_check_name(BisectCheck check);
std::optional<BisectCheck> parse_bisect_check(std::string_view name);
// Apply and build give the same answer every time: one run decides a step.
bool is_deterministic(BisectCheck check);

// One run of the check at one prefix.
//  k_unknown     timing only: the statistics could not tell (more samples);
//  k_untestable  the check cannot be made there (a boot check at a prefix
//                that does not build): git bisect's "skip".
enum class RunOutcome { k_pass, k_fail, k_unknown, k_untestable };
std::string run_outcome_name(RunOutcome outcome);

struct BisectRun {
  RunOutcome outcome = RunOutcome::k_untestable;
  std::string summary;  // one line: why it passed or failed
  int builds = 0;       // kernels made by this run
  int cached = 0;       // kernels taken from the cache
  int boots = 0;
  double seconds = 0;
};

// A step's decision. k_more: not decided yet, run the prefix again;
// k_unknown: a timing step still unknown after the most runs allowed.
enum class StepVerdict { k_good, k_bad, k_more, k_unknown, k_untestable };
std::string step_verdict_name(StepVerdict verdict);

struct BisectPolicy {
  BisectCheck check = BisectCheck::k_case;
  int runs = 3;             // boot and case: at most this many runs per step
  int timing_runs = 3;      // timing: runs per step while the verdict is unknown
  double threshold = 0.66;  // the confidence a culprit needs to be named
  TimingReference reference = TimingReference::k_last_good;  // timing only
};

// Boot and case steps: the failures that make a step bad, syzbot's rule
// max(2, runs/6) over the runs a step may take (never more than RUNS: with
// one run, one failure is bad).
int failures_needed(int runs);

// Decides a step from its runs so far. Boot and case: bad once the failures
// reach failures_needed(policy.runs), good once the runs left cannot reach
// it (so a clean prefix costs runs - 1 runs and a steady failure 2). Apply
// and build: the one run. Timing: the latest verdict, run again while it is
// unknown. Any untestable run makes the step untestable.
StepVerdict judge_step(std::span<const BisectRun> runs, const BisectPolicy& policy);

// The next prefix to try strictly between LO (good) and HI (bad): the one
// nearest the middle (the lower of two), skipping SKIPPED; nullopt when
// none is left.
std::optional<std::size_t> next_candidate(std::size_t lo, std::size_t hi,
                                          const std::set<std::size_t>& skipped);

enum class BisectPhase { k_tip, k_hunt, k_search, k_confirm };
std::string bisect_phase_name(BisectPhase phase);

struct BisectStep {
  std::size_t prefix = 0;
  BisectPhase phase = BisectPhase::k_tip;
  std::vector<BisectRun> runs;
  StepVerdict verdict = StepVerdict::k_more;
  // Timing: the prefix the runs compare with: of this series (k_last_good,
  // k_base) or of the reference revision (k_against, then == prefix).
  std::size_t reference = 0;
};

enum class BisectEnd { k_culprit, k_tip_passes, k_inconclusive };

struct BisectCost {
  int builds = 0;
  int cached = 0;
  int boots = 0;
  double seconds = 0;
};

struct BisectResult {
  BisectEnd end = BisectEnd::k_inconclusive;
  // The patch (1-based) named as the culprit, or the suspect an
  // inconclusive bisection got to; nullopt when there is none.
  std::optional<std::size_t> culprit;
  double confidence = 0;
  std::string reason;  // one line
  BisectCost cost;
};

class Bisection {
 public:
  // PATCHES >= 1 (the prefixes are 0..PATCHES).
  Bisection(std::size_t patches, BisectPolicy policy);

  // The prefix to run next; nullopt once the bisection is finished.
  std::optional<std::size_t> next() const;
  // The index in steps() of the step next() belongs to: runs of one step
  // may pool their samples, runs of different steps must not.
  std::size_t current_step() const { return m_steps.size() - 1; }
  // Timing: what next()'s runs compare with (BisectStep::reference).
  std::size_t reference() const { return m_steps.back().reference; }
  // Records a run of next()'s prefix and moves on when the step is decided.
  void record(BisectRun run);

  bool finished() const { return m_result.has_value(); }
  const std::vector<BisectStep>& steps() const { return m_steps; }
  std::size_t patches() const { return m_patches; }
  const BisectPolicy& policy() const { return m_policy; }
  // Only once finished().
  BisectResult result() const;

 private:
  void open(std::size_t prefix, BisectPhase phase, std::size_t reference);
  void open(std::size_t prefix, BisectPhase phase);  // the policy's reference
  void decided(BisectStep step);                     // a copy: deciding may open the next step
  void search_decided(const BisectStep& step);
  bool relative_timing() const;
  bool settle_hi();  // k_last_good: false when it finished
  void search();
  void hunt();
  void confirm_before();
  void finish(BisectEnd end, std::string reason, std::optional<std::size_t> culprit = {});

  std::size_t m_patches;
  BisectPolicy m_policy;
  std::vector<BisectStep> m_steps;
  std::size_t m_lo = 0;                      // the last good prefix (0, the base, is taken as good)
  std::size_t m_hi = 0;                      // the first bad prefix
  std::size_t m_lo_reference = 0;            // k_last_good: what m_lo was judged good against
  std::map<std::size_t, std::size_t> m_bad;  // k_last_good: prefix -> bad against
  std::set<std::size_t> m_skipped;
  std::vector<std::string> m_skip_reasons;
  std::optional<BisectResult> m_result;
};

// How sure the bisection is that patch CULPRIT is the culprit, from every
// run at its prefix (bad) and the prefix before it (good), search and
// confirmation together:
//  boot, case: P(bad) = 1 - P(failures this many or more | flakes), the
//    flake rate estimated from the good steps ((failures + 0.5) / (runs +
//    1)); P(good) = 1 - (1 - p)^passes, p the failure rate at the bad
//    steps (the chance the bug would have shown); the product of the two;
//  apply, build: 1 when every run at the two prefixes agrees, else 0;
//  timing: 0.95 (the intervals' level) for each of the two prefixes, times
//    the share of its decided steps that agree, counting only the steps
//    against the reference of its last step (a prefix bad against the base
//    may be good against its predecessor); the base is good by definition.
double bisect_confidence(const std::vector<BisectStep>& steps, std::size_t culprit,
                         BisectCheck check);

// What a linear scan would have cost: every prefix built and checked once,
// as `kseries gate`'s per-patch builds do, at this bisection's own cost per
// step (boots per decided step).
struct LinearScan {
  int builds = 0;  // every prefix 1..N (and the base, for timing)
  int boots = 0;
  int builds_to_culprit = 0;  // an ascending scan that stops at the culprit
  int boots_to_culprit = 0;
};
LinearScan estimate_linear_scan(const Bisection& bisection);

}  // namespace kseries::bisect
