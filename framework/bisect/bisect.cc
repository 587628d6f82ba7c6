#include "bisect/bisect.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kseries::bisect {

namespace {

// A decided timing step is as sure as the intervals that decided it.
constexpr double k_timing_step_confidence = 0.95;

bool is_decided(StepVerdict verdict) {
  return verdict == StepVerdict::k_good || verdict == StepVerdict::k_bad;
}

// P(X >= k) for X ~ Binomial(n, p).
double binomial_tail(int n, int k, double p) {
  double tail = 0;
  for (int i = k; i <= n; ++i) {
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0)) *
            std::pow(p, i) * std::pow(1 - p, n - i);
  }
  return std::min(1.0, tail);
}

struct Tally {
  int runs = 0;
  int failures = 0;
  int decided_steps = 0;
  int agreeing_steps = 0;
};

// Every pass/fail run at PREFIX, and how many of its decided steps say WANT;
// only the steps against REFERENCE when one is given.
Tally tally(const std::vector<BisectStep>& steps, std::size_t prefix, StepVerdict want,
            std::optional<std::size_t> reference = std::nullopt) {
  Tally t;
  for (const auto& step : steps) {
    if (step.prefix != prefix || (reference && step.reference != *reference)) {
      continue;
    }
    for (const auto& run : step.runs) {
      if (run.outcome == RunOutcome::k_pass || run.outcome == RunOutcome::k_fail) {
        ++t.runs;
        t.failures += run.outcome == RunOutcome::k_fail ? 1 : 0;
      }
    }
    if (is_decided(step.verdict)) {
      ++t.decided_steps;
      t.agreeing_steps += step.verdict == want ? 1 : 0;
    }
  }
  return t;
}

// Pass/fail runs over every step decided as VERDICT.
Tally tally_all(const std::vector<BisectStep>& steps, StepVerdict verdict) {
  Tally t;
  for (const auto& step : steps) {
    if (step.verdict != verdict) {
      continue;
    }
    for (const auto& run : step.runs) {
      if (run.outcome == RunOutcome::k_pass || run.outcome == RunOutcome::k_fail) {
        ++t.runs;
        t.failures += run.outcome == RunOutcome::k_fail ? 1 : 0;
      }
    }
  }
  return t;
}

// The reference of the last decided step at PREFIX (timing).
std::optional<std::size_t> last_reference(const std::vector<BisectStep>& steps,
                                          std::size_t prefix) {
  std::optional<std::size_t> reference;
  for (const auto& step : steps) {
    if (step.prefix == prefix && is_decided(step.verdict)) {
      reference = step.reference;
    }
  }
  return reference;
}

std::string label(std::size_t prefix, std::size_t patches) {
  return prefix == 0 ? "the base (prefix 0)"
                     : "prefix " + std::to_string(prefix) + "/" + std::to_string(patches);
}

}  // namespace

std::string bisect_check_name(BisectCheck check) {
  switch (check) {
    case BisectCheck::k_apply:
      return "apply";
    case BisectCheck::k_build:
      return "build";
    case BisectCheck::k_boot:
      return "boot";
    case BisectCheck::k_case:
      return "case";
    case BisectCheck::k_timing:
      return "timing";
  }
  return "?";
}

std::optional<BisectCheck> parse_bisect_check(std::string_view name) {
  for (auto check : {BisectCheck::k_apply, BisectCheck::k_build, BisectCheck::k_boot,
                     BisectCheck::k_case, BisectCheck::k_timing}) {
    if (bisect_check_name(check) == name) {
      return check;
    }
  }
  return std::nullopt;
}

std::string timing_reference_name(TimingReference reference) {
  switch (reference) {
    case TimingReference::k_last_good:
      return "last-good";
    case TimingReference::k_base:
      return "base";
    case TimingReference::k_against:
      return "against";
  }
  return "?";
}

bool is_deterministic(BisectCheck check) {
  return check == BisectCheck::k_apply || check == BisectCheck::k_build;
}

std::string run_outcome_name(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::k_pass:
      return "pass";
    case RunOutcome::k_fail:
      return "fail";
    case RunOutcome::k_unknown:
      return "unknown";
    case RunOutcome::k_untestable:
      return "untestable";
  }
  return "?";
}

std::string step_verdict_name(StepVerdict verdict) {
  switch (verdict) {
    case StepVerdict::k_good:
      return "good";
    case StepVerdict::k_bad:
      return "bad";
    case StepVerdict::k_more:
      return "undecided";
    case StepVerdict::k_unknown:
      return "unknown";
    case StepVerdict::k_untestable:
      return "untestable";
  }
  return "?";
}

std::string bisect_phase_name(BisectPhase phase) {
  switch (phase) {
    case BisectPhase::k_tip:
      return "tip";
    case BisectPhase::k_hunt:
      return "hunt";
    case BisectPhase::k_search:
      return "search";
    case BisectPhase::k_confirm:
      return "confirm";
  }
  return "?";
}

int failures_needed(int runs) {
  const int syzbot = std::max(2, static_cast<int>(std::ceil(runs / 6.0)));
  return std::max(1, std::min(syzbot, runs));
}

StepVerdict judge_step(std::span<const BisectRun> runs, const BisectPolicy& policy) {
  if (runs.empty()) {
    return StepVerdict::k_more;
  }
  for (const auto& run : runs) {
    // Only timing has an unknown outcome; elsewhere it cannot be judged.
    if (run.outcome == RunOutcome::k_untestable ||
        (run.outcome == RunOutcome::k_unknown && policy.check != BisectCheck::k_timing)) {
      return StepVerdict::k_untestable;
    }
  }
  const RunOutcome last = runs.back().outcome;
  if (policy.check == BisectCheck::k_timing) {
    if (last == RunOutcome::k_unknown) {
      return static_cast<int>(runs.size()) < std::max(1, policy.timing_runs)
                 ? StepVerdict::k_more
                 : StepVerdict::k_unknown;
    }
    return last == RunOutcome::k_fail ? StepVerdict::k_bad : StepVerdict::k_good;
  }
  if (is_deterministic(policy.check)) {
    return last == RunOutcome::k_fail ? StepVerdict::k_bad : StepVerdict::k_good;
  }
  // Boot and case.
  const int planned = std::max(1, policy.runs);
  const int needed = failures_needed(planned);
  const auto counted = static_cast<int>(runs.size());
  const auto failures =
      static_cast<int>(std::count_if(runs.begin(), runs.end(), [](const BisectRun& r) {
        return r.outcome == RunOutcome::k_fail;
      }));
  if (failures >= needed) {
    return StepVerdict::k_bad;
  }
  if (failures + (planned - counted) < needed) {
    return StepVerdict::k_good;
  }
  return StepVerdict::k_more;
}

std::optional<std::size_t> next_candidate(std::size_t lo, std::size_t hi,
                                          const std::set<std::size_t>& skipped) {
  if (hi <= lo + 1) {
    return std::nullopt;
  }
  const std::size_t middle = lo + (hi - lo) / 2;
  std::optional<std::size_t> best;
  for (std::size_t c = lo + 1; c < hi; ++c) {
    if (skipped.count(c)) {
      continue;
    }
    const auto distance = [&](std::size_t x) { return x > middle ? x - middle : middle - x; };
    if (!best || distance(c) < distance(*best)) {
      best = c;
    }
  }
  return best;
}

Bisection::Bisection(std::size_t patches, BisectPolicy policy)
    : m_patches(patches), m_policy(policy), m_hi(patches) {
  if (patches == 0) {
    throw std::invalid_argument("a bisection needs at least one patch");
  }
  open(patches, BisectPhase::k_tip);
}

std::optional<std::size_t> Bisection::next() const {
  if (finished()) {
    return std::nullopt;
  }
  return m_steps.back().prefix;
}

bool Bisection::relative_timing() const {
  return m_policy.check == BisectCheck::k_timing &&
         m_policy.reference == TimingReference::k_last_good;
}

void Bisection::open(std::size_t prefix, BisectPhase phase, std::size_t reference) {
  m_steps.push_back({prefix, phase, {}, StepVerdict::k_more, reference});
}

void Bisection::open(std::size_t prefix, BisectPhase phase) {
  std::size_t reference = 0;
  if (m_policy.check == BisectCheck::k_timing) {
    switch (m_policy.reference) {
      case TimingReference::k_last_good:
        reference = m_lo;
        break;
      case TimingReference::k_base:
        break;
      case TimingReference::k_against:
        reference = prefix;
        break;
    }
  }
  open(prefix, phase, reference);
}

void Bisection::record(BisectRun run) {
  if (finished()) {
    throw std::logic_error("a run recorded after the bisection finished");
  }
  auto& step = m_steps.back();
  step.runs.push_back(std::move(run));
  step.verdict = judge_step(step.runs, m_policy);
  if (step.verdict != StepVerdict::k_more) {
    decided(m_steps.back());
  }
}

void Bisection::decided(BisectStep step) {
  const std::size_t prefix = step.prefix;
  const std::string why = step.runs.back().summary;
  switch (step.phase) {
    case BisectPhase::k_tip:
      switch (step.verdict) {
        case StepVerdict::k_bad:
          m_hi = prefix;
          m_bad[prefix] = step.reference;
          search();
          return;
        case StepVerdict::k_good:
          if (m_policy.check == BisectCheck::k_build && m_patches > 1) {
            // A break a later patch fixes is still a break (bisectability):
            // only the build check looks for it below a tip that passes.
            hunt();
          } else {
            finish(BisectEnd::k_tip_passes, "the tip passes: nothing to bisect");
          }
          return;
        case StepVerdict::k_unknown:
          finish(BisectEnd::k_inconclusive, "the tip's timing stayed unknown after " +
                                                std::to_string(step.runs.size()) + " run(s)");
          return;
        default:
          finish(BisectEnd::k_inconclusive, "the tip cannot be tested: " + why);
          return;
      }
    case BisectPhase::k_hunt:
    case BisectPhase::k_search:
      search_decided(step);
      return;
    case BisectPhase::k_confirm:
      if (prefix == m_hi) {
        if (step.verdict != StepVerdict::k_bad) {
          finish(BisectEnd::k_inconclusive,
                 label(prefix, m_patches) + " was " + step_verdict_name(step.verdict) +
                     " when decided again (flaky?): " + why,
                 m_hi);
          return;
        }
        confirm_before();
        return;
      }
      if (step.verdict != StepVerdict::k_good) {
        finish(BisectEnd::k_inconclusive,
               prefix == 0
                   ? "the base fails too when checked: the failure is not the series' (" + why + ")"
                   : label(prefix, m_patches) + " was " + step_verdict_name(step.verdict) +
                         " when decided again (flaky?): " + why,
               m_hi);
        return;
      }
      finish(BisectEnd::k_culprit, "", m_hi);
      return;
  }
}

void Bisection::search_decided(const BisectStep& step) {
  const std::size_t prefix = step.prefix;
  if (step.verdict == StepVerdict::k_good) {
    if (prefix > m_lo) {
      m_lo = prefix;
      m_lo_reference = step.reference;
    }
    m_bad.erase(prefix);
  } else if (step.verdict == StepVerdict::k_bad) {
    m_hi = std::min(m_hi, prefix);
    m_bad[prefix] = step.reference;
  } else {
    m_skipped.insert(prefix);
    m_bad.erase(prefix);
    m_skip_reasons.push_back(label(prefix, m_patches) + " " + step_verdict_name(step.verdict) +
                             ": " + step.runs.back().summary);
  }
  if (step.phase == BisectPhase::k_hunt && step.verdict != StepVerdict::k_bad) {
    hunt();
  } else {
    search();
  }
}

bool Bisection::settle_hi() {
  // The first bad prefix above the last good one. Its bad verdict may be
  // against an older good prefix (a step slower than the base need not be
  // slower than its predecessor): the search below it compares with the
  // last good prefix, and it is judged again once it is the next one up.
  for (const auto& bad : m_bad) {
    if (bad.first > m_lo && !m_skipped.count(bad.first)) {
      m_hi = bad.first;
      return true;
    }
  }
  std::string why =
      m_lo == m_patches
          ? "no patch is slower than the prefix before it by the threshold: the tip is slower "
            "than the base, but each prefix stayed within the threshold of the last good one "
            "(a slowdown built up over several patches)"
          : "no prefix above " + label(m_lo, m_patches) +
                " (the last good one) could be decided against it";
  for (const auto& reason : m_skip_reasons) {
    why += "; " + reason;
  }
  finish(BisectEnd::k_inconclusive, why);
  return false;
}

void Bisection::hunt() {
  // Ascending: the first failing prefix is the culprit, and the one before
  // it has just passed.
  for (std::size_t c = m_lo + 1; c < m_hi; ++c) {
    if (!m_skipped.count(c)) {
      open(c, BisectPhase::k_hunt);
      return;
    }
  }
  finish(BisectEnd::k_tip_passes,
         "no prefix fails: every one of the " + std::to_string(m_patches) + " prefixes passes");
}

void Bisection::search() {
  if (relative_timing() && !settle_hi()) {
    return;
  }
  if (const auto candidate = next_candidate(m_lo, m_hi, m_skipped)) {
    open(*candidate, BisectPhase::k_search);
    return;
  }
  if (m_hi == m_lo + 1) {
    if (relative_timing() && m_bad[m_hi] != m_lo) {
      // Bad against an older good prefix only: judged against the last one.
      open(m_hi, BisectPhase::k_search, m_lo);
    } else {
      open(m_hi, BisectPhase::k_confirm);
    }
    return;
  }
  std::string why = "the culprit is one of patches " + std::to_string(m_lo + 1) + ".." +
                    std::to_string(m_hi) + ": the prefixes between could not be decided";
  for (const auto& reason : m_skip_reasons) {
    why += "; " + reason;
  }
  finish(BisectEnd::k_inconclusive, why);
}

void Bisection::confirm_before() {
  const std::size_t before = m_hi - 1;
  if (relative_timing()) {
    // The culprit was judged against before == m_lo; m_lo once more against
    // what it was good against (the base is good by definition).
    if (before == 0) {
      finish(BisectEnd::k_culprit, "", m_hi);
    } else {
      open(before, BisectPhase::k_confirm, m_lo_reference);
    }
    return;
  }
  // The base applies by definition, and is its own timing baseline.
  if (before == 0 &&
      (m_policy.check == BisectCheck::k_apply || m_policy.check == BisectCheck::k_timing)) {
    finish(BisectEnd::k_culprit, "", m_hi);
    return;
  }
  open(before, BisectPhase::k_confirm);
}

void Bisection::finish(BisectEnd end, std::string reason, std::optional<std::size_t> culprit) {
  BisectResult result;
  result.end = end;
  result.culprit = culprit;
  result.reason = std::move(reason);
  if (culprit && (end == BisectEnd::k_culprit || m_hi == *culprit)) {
    result.confidence = bisect_confidence(m_steps, *culprit, m_policy.check);
  }
  if (end == BisectEnd::k_culprit && result.confidence < m_policy.threshold) {
    result.end = BisectEnd::k_inconclusive;
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "confidence %.2f is below the threshold %.2f",
                  result.confidence, m_policy.threshold);
    result.reason = buffer;
  }
  for (const auto& step : m_steps) {
    for (const auto& run : step.runs) {
      result.cost.builds += run.builds;
      result.cost.cached += run.cached;
      result.cost.boots += run.boots;
      result.cost.seconds += run.seconds;
    }
  }
  m_result = std::move(result);
}

BisectResult Bisection::result() const {
  if (!m_result) {
    throw std::logic_error("the bisection has not finished");
  }
  return *m_result;
}

double bisect_confidence(const std::vector<BisectStep>& steps, std::size_t culprit,
                         BisectCheck check) {
  if (culprit == 0) {
    return 0;
  }
  // Timing: a prefix is judged against the reference of its last step (a
  // prefix bad against the base may be good against its predecessor).
  const bool timing = check == BisectCheck::k_timing;
  const Tally bad = tally(steps, culprit, StepVerdict::k_bad,
                          timing ? last_reference(steps, culprit) : std::nullopt);
  const Tally good = tally(steps, culprit - 1, StepVerdict::k_good,
                           timing ? last_reference(steps, culprit - 1) : std::nullopt);
  const bool base_by_definition =
      culprit == 1 && (check == BisectCheck::k_apply || check == BisectCheck::k_timing);
  if (check == BisectCheck::k_timing) {
    auto share = [](const Tally& t) {
      return t.decided_steps == 0 ? 0.0
                                  : k_timing_step_confidence * t.agreeing_steps /
                                        static_cast<double>(t.decided_steps);
    };
    return share(bad) * (base_by_definition ? 1.0 : share(good));
  }
  if (is_deterministic(check)) {
    const bool bad_agrees = bad.runs > 0 && bad.failures == bad.runs;
    const bool good_agrees = base_by_definition || (good.runs > 0 && good.failures == 0);
    return bad_agrees && good_agrees ? 1.0 : 0.0;
  }
  if (bad.runs == 0 || good.runs == good.failures) {
    return 0;
  }
  // The flake rate of kernels taken as good, and the bug's failure rate.
  const Tally good_all = tally_all(steps, StepVerdict::k_good);
  const Tally bad_all = tally_all(steps, StepVerdict::k_bad);
  const double flake = (good_all.failures + 0.5) / (good_all.runs + 1.0);
  const double repro =
      bad_all.runs > 0 ? bad_all.failures / static_cast<double>(bad_all.runs) : 0.0;
  const double p_bad = 1 - binomial_tail(bad.runs, bad.failures, flake);
  const double p_good = 1 - std::pow(1 - repro, good.runs - good.failures);
  return p_bad * p_good;
}

LinearScan estimate_linear_scan(const Bisection& bisection) {
  int boots = 0, decided_steps = 0;
  for (const auto& step : bisection.steps()) {
    if (step.verdict == StepVerdict::k_more) {
      continue;
    }
    ++decided_steps;
    for (const auto& run : step.runs) {
      boots += run.boots;
    }
  }
  const auto n = static_cast<int>(bisection.patches());
  const auto check = bisection.policy().check;
  const bool builds = check != BisectCheck::k_apply;
  // Timing boots a reference beside every prefix: the base (one more
  // kernel; against the prefix before, the base for prefix 1), or every
  // prefix of the reference revision (at most n more: shared ones are not
  // built).
  const bool against = bisection.policy().reference == TimingReference::k_against;
  const int base = check != BisectCheck::k_timing ? 0 : against ? n : 1;
  const double per_step = decided_steps > 0 ? boots / static_cast<double>(decided_steps) : 0;
  LinearScan scan;
  scan.builds = builds ? n + base : 0;
  scan.boots = static_cast<int>(std::lround(per_step * n));
  if (bisection.finished() && bisection.result().culprit) {
    const auto k = static_cast<int>(*bisection.result().culprit);
    scan.builds_to_culprit = builds ? k + (against ? k : base) : 0;
    scan.boots_to_culprit = static_cast<int>(std::lround(per_step * k));
  }
  return scan;
}

}  // namespace kseries::bisect
