#include "bisect/bisect.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <vector>

namespace kseries::bisect {
namespace {

using Outcome = RunOutcome;
constexpr Outcome P = RunOutcome::k_pass;
constexpr Outcome F = RunOutcome::k_fail;
constexpr Outcome U = RunOutcome::k_unknown;
constexpr Outcome S = RunOutcome::k_untestable;

// The outcome of the n-th run (0-based) at a prefix.
using World = std::function<Outcome(std::size_t prefix, int nth)>;

struct Simulation {
  Bisection bisection;
  std::map<std::size_t, int> runs;  // per prefix
  int total = 0;
};

// Runs a bisection of N patches against WORLD, each run one boot and a
// build the first time a prefix is seen.
Simulation simulate(std::size_t n, BisectPolicy policy, const World& world) {
  Simulation sim{Bisection(n, policy), {}, 0};
  while (const auto prefix = sim.bisection.next()) {
    if (++sim.total > 500) {
      throw std::runtime_error("the bisection does not end");
    }
    BisectRun run;
    const int nth = sim.runs[*prefix]++;
    run.outcome = world(*prefix, nth);
    run.summary = "prefix " + std::to_string(*prefix) + " run " + std::to_string(nth);
    run.builds = nth == 0 ? 1 : 0;
    run.cached = nth == 0 ? 0 : 1;
    run.boots = 1;
    sim.bisection.record(run);
  }
  return sim;
}

// A steady bug from patch K on.
World steady(std::size_t k) {
  return [k](std::size_t prefix, int) { return prefix >= k ? F : P; };
}

BisectPolicy policy(BisectCheck check) {
  BisectPolicy p;
  p.check = check;
  return p;
}

std::vector<BisectRun> runs_of(std::initializer_list<Outcome> outcomes) {
  std::vector<BisectRun> runs;
  for (auto outcome : outcomes) {
    runs.push_back({outcome, "", 0, 0, 0, 0});
  }
  return runs;
}

TEST(BisectRuleTest, FailuresNeededIsSyzbotsRuleCappedByTheRuns) {
  EXPECT_EQ(failures_needed(1), 1);
  EXPECT_EQ(failures_needed(2), 2);
  EXPECT_EQ(failures_needed(3), 2);
  EXPECT_EQ(failures_needed(6), 2);
  EXPECT_EQ(failures_needed(12), 2);
  EXPECT_EQ(failures_needed(13), 3);
  EXPECT_EQ(failures_needed(18), 3);
  EXPECT_EQ(failures_needed(19), 4);
}

TEST(BisectRuleTest, CrashStepIsBadOnlyFromTwoFailures) {
  const auto p = policy(BisectCheck::k_case);  // 3 runs at most
  EXPECT_EQ(judge_step(runs_of({F}), p), StepVerdict::k_more);
  EXPECT_EQ(judge_step(runs_of({F, F}), p), StepVerdict::k_bad);
  EXPECT_EQ(judge_step(runs_of({F, P}), p), StepVerdict::k_more);
  EXPECT_EQ(judge_step(runs_of({F, P, F}), p), StepVerdict::k_bad);
  // One failure in three is a flake: good.
  EXPECT_EQ(judge_step(runs_of({F, P, P}), p), StepVerdict::k_good);
  // Two passes: the last run cannot reach two failures.
  EXPECT_EQ(judge_step(runs_of({P, P}), p), StepVerdict::k_good);
  EXPECT_EQ(judge_step(runs_of({P}), p), StepVerdict::k_more);
  EXPECT_EQ(judge_step(runs_of({P, S}), p), StepVerdict::k_untestable);
  // Twelve runs: still two failures, so eleven passes decide a good step.
  auto twelve = p;
  twelve.runs = 12;
  EXPECT_EQ(judge_step(runs_of({P, P, P, P, P, P, P, P, P, P}), twelve), StepVerdict::k_more);
  EXPECT_EQ(judge_step(runs_of({P, P, P, P, P, P, P, P, P, P, P}), twelve), StepVerdict::k_good);
}

TEST(BisectRuleTest, DeterministicChecksDecideOnOneRun) {
  for (auto check : {BisectCheck::k_apply, BisectCheck::k_build}) {
    EXPECT_EQ(judge_step(runs_of({F}), policy(check)), StepVerdict::k_bad);
    EXPECT_EQ(judge_step(runs_of({P}), policy(check)), StepVerdict::k_good);
    EXPECT_EQ(judge_step(runs_of({U}), policy(check)), StepVerdict::k_untestable);
  }
}

TEST(BisectRuleTest, TimingUnknownAsksForMoreSamplesUpToTheLimit) {
  const auto p = policy(BisectCheck::k_timing);  // 3 runs
  EXPECT_EQ(judge_step(runs_of({U}), p), StepVerdict::k_more);
  EXPECT_EQ(judge_step(runs_of({U, U}), p), StepVerdict::k_more);
  EXPECT_EQ(judge_step(runs_of({U, U, U}), p), StepVerdict::k_unknown);
  // The latest (pooled) verdict decides.
  EXPECT_EQ(judge_step(runs_of({U, F}), p), StepVerdict::k_bad);
  EXPECT_EQ(judge_step(runs_of({U, P}), p), StepVerdict::k_good);
  EXPECT_EQ(judge_step(runs_of({F}), p), StepVerdict::k_bad);
}

TEST(NextCandidateTest, HalvesAndSkipsUntestablePrefixes) {
  EXPECT_EQ(next_candidate(0, 8, {}), 4u);
  EXPECT_EQ(next_candidate(4, 8, {}), 6u);
  EXPECT_EQ(next_candidate(0, 3, {}), 1u);
  EXPECT_EQ(next_candidate(4, 5, {}), std::nullopt);
  EXPECT_EQ(next_candidate(0, 8, {4}), 3u);  // the lower of 3 and 5
  EXPECT_EQ(next_candidate(0, 8, {3, 4}), 5u);
  EXPECT_EQ(next_candidate(2, 5, {3, 4}), std::nullopt);
}

TEST(BisectTest, SteadyCulpritInTheMiddleTakesLogarithmicallyManySteps) {
  auto sim = simulate(8, policy(BisectCheck::k_case), steady(5));
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 5u);
  // Not 1: four clean runs do not rule out a rare flake.
  EXPECT_GT(result.confidence, 0.999);
  // tip 8, then 4, 6, 5, then 5 and 4 again.
  std::vector<std::size_t> order;
  for (const auto& step : sim.bisection.steps()) {
    order.push_back(step.prefix);
  }
  EXPECT_EQ(order, (std::vector<std::size_t>{8, 4, 6, 5, 5, 4}));
  EXPECT_EQ(sim.bisection.steps().back().phase, BisectPhase::k_confirm);
  // Prefixes built: 8, 4, 6, 5: fewer than the 8 of a linear scan.
  EXPECT_EQ(result.cost.builds, 4);
  EXPECT_EQ(result.cost.boots, sim.total);
  EXPECT_EQ(estimate_linear_scan(sim.bisection).builds, 8);
  EXPECT_LT(result.cost.builds, estimate_linear_scan(sim.bisection).builds);
}

TEST(BisectTest, CulpritAtTheFirstPatchChecksTheBase) {
  auto sim = simulate(8, policy(BisectCheck::k_case), steady(1));
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 1u);
  EXPECT_EQ(sim.bisection.steps().back().prefix, 0u);  // the base, confirmed good
  EXPECT_EQ(sim.runs[0], 2);
}

TEST(BisectTest, CulpritAtTheLastPatch) {
  auto sim = simulate(8, policy(BisectCheck::k_case), steady(8));
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 8u);
}

TEST(BisectTest, EveryCulpritPositionIsFoundForEveryCheck) {
  for (auto check : {BisectCheck::k_apply, BisectCheck::k_build, BisectCheck::k_boot,
                     BisectCheck::k_case, BisectCheck::k_timing}) {
    for (std::size_t n : {1u, 2u, 3u, 7u, 13u}) {
      for (std::size_t k = 1; k <= n; ++k) {
        auto sim = simulate(n, policy(check), steady(k));
        const auto result = sim.bisection.result();
        EXPECT_EQ(result.end, BisectEnd::k_culprit)
            << bisect_check_name(check) << " n=" << n << " k=" << k << ": " << result.reason;
        EXPECT_EQ(result.culprit, k) << bisect_check_name(check) << " n=" << n;
      }
    }
  }
}

TEST(BisectTest, AllPassMeansNothingToBisect) {
  auto sim = simulate(8, policy(BisectCheck::k_case), [](std::size_t, int) { return P; });
  const auto result = sim.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_tip_passes);
  EXPECT_EQ(result.culprit, std::nullopt);
  EXPECT_EQ(sim.bisection.steps().size(), 1u);  // only the tip
  EXPECT_EQ(sim.total, 2);                      // two passes decide it
}

TEST(BisectTest, AllFailIncludingTheBaseIsInconclusive) {
  auto sim = simulate(8, policy(BisectCheck::k_case), [](std::size_t, int) { return F; });
  const auto result = sim.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_inconclusive);
  EXPECT_NE(result.reason.find("the base fails too"), std::string::npos) << result.reason;
  EXPECT_EQ(result.culprit, 1u);  // the suspect
}

TEST(BisectTest, FlakyFailuresAtGoodPrefixesDoNotMoveTheCulprit) {
  // From patch 5 on the bug shows in two runs of three; before it, every
  // fourth run of any prefix fails anyway (a flaky machine).
  int runs = 0;
  auto world = [&runs](std::size_t prefix, int nth) {
    const bool flake = ++runs % 4 == 0;
    if (prefix >= 5) {
      return nth % 3 == 1 ? P : F;
    }
    return flake ? F : P;
  };
  auto sim = simulate(8, policy(BisectCheck::k_case), world);
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 5u);
  EXPECT_GE(result.confidence, 0.66);
  EXPECT_LT(result.confidence, 1.0);
}

TEST(BisectTest, OneFailureIsNotEnoughToCallAStepBad) {
  // Every prefix fails its first run only: nothing is bad.
  auto sim = simulate(8, policy(BisectCheck::k_case),
                      [](std::size_t, int nth) { return nth == 0 ? F : P; });
  EXPECT_EQ(sim.bisection.result().end, BisectEnd::k_tip_passes);
}

TEST(BisectTest, ACulpritThatPassesWhenDecidedAgainIsInconclusive) {
  // Prefix 5 fails its first two runs only.
  auto world = [](std::size_t prefix, int nth) {
    if (prefix == 5) {
      return nth < 2 ? F : P;
    }
    return prefix > 5 ? F : P;
  };
  auto sim = simulate(8, policy(BisectCheck::k_case), world);
  const auto result = sim.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_inconclusive);
  EXPECT_NE(result.reason.find("prefix 5/8 was good when decided again"), std::string::npos)
      << result.reason;
  EXPECT_EQ(result.culprit, 5u);
}

TEST(BisectTest, BelowTheConfidenceThresholdIsInconclusiveAndSaysSo) {
  // A bug that fails two runs of three from patch 5 on, on a machine where
  // good prefixes fail one run in three: the failures might be flakes.
  auto world = [](std::size_t prefix, int nth) {
    if (prefix >= 5) {
      return nth % 3 == 2 ? P : F;
    }
    return nth % 3 == 0 ? F : P;
  };
  auto sim = simulate(8, policy(BisectCheck::k_case), world);
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 5u);
  EXPECT_GT(result.confidence, 0.66);
  EXPECT_LT(result.confidence, 0.95);
  // The same evidence under a stricter threshold names no culprit.
  auto strict = policy(BisectCheck::k_case);
  strict.threshold = 0.95;
  auto again = simulate(8, strict, world);
  const auto unsure = again.bisection.result();
  EXPECT_EQ(unsure.end, BisectEnd::k_inconclusive);
  EXPECT_EQ(unsure.culprit, 5u);  // the suspect
  EXPECT_NE(unsure.reason.find("is below the threshold 0.95"), std::string::npos) << unsure.reason;
  EXPECT_DOUBLE_EQ(unsure.confidence, result.confidence);
}

TEST(BisectConfidenceTest, FlakesAtGoodPrefixesLowerTheConfidenceOfABadOne) {
  // Prefix 4 good, 5 bad (two failures in two runs, twice).
  auto steps = [](int good_failures) {
    std::vector<BisectStep> s;
    s.push_back({5, BisectPhase::k_search, runs_of({F, F}), StepVerdict::k_bad});
    std::vector<BisectRun> good = runs_of({P, P, P});
    for (int i = 0; i < good_failures; ++i) {
      good[i].outcome = F;
    }
    s.push_back({4, BisectPhase::k_search, good, StepVerdict::k_good});
    s.push_back({5, BisectPhase::k_confirm, runs_of({F, F}), StepVerdict::k_bad});
    s.push_back({4, BisectPhase::k_confirm, runs_of({P, P}), StepVerdict::k_good});
    return s;
  };
  const double clean = bisect_confidence(steps(0), 5, BisectCheck::k_case);
  const double flaky = bisect_confidence(steps(1), 5, BisectCheck::k_case);
  EXPECT_GT(clean, 0.99);
  EXPECT_LT(flaky, clean);
  // Four failures in four runs against a flake rate of (1 + 0.5) / (5 + 1).
  EXPECT_NEAR(flaky, 1 - 0.25 * 0.25 * 0.25 * 0.25, 1e-12);
  // Apply and build cannot flake: all agree or nothing.
  EXPECT_DOUBLE_EQ(bisect_confidence(steps(0), 5, BisectCheck::k_build), 1.0);
  EXPECT_DOUBLE_EQ(bisect_confidence(steps(1), 5, BisectCheck::k_build), 0.0);
  // No run at the culprit: no confidence.
  EXPECT_DOUBLE_EQ(bisect_confidence(steps(0), 7, BisectCheck::k_case), 0.0);
}

TEST(BisectTest, TimingUnknownTakesMoreSamplesThenDecides) {
  // Prefix 4 is unknown on its first run and faster once pooled; the tip
  // and 6 are slower; 5 is slower only after a second run.
  auto world = [](std::size_t prefix, int nth) {
    if (prefix == 4 || prefix == 5) {
      return nth == 0 ? U : (prefix == 4 ? P : F);
    }
    return prefix >= 5 ? F : P;
  };
  auto sim = simulate(8, policy(BisectCheck::k_timing), world);
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 5u);
  EXPECT_EQ(sim.bisection.steps()[1].prefix, 4u);
  EXPECT_EQ(sim.bisection.steps()[1].runs.size(), 2u);
  EXPECT_EQ(sim.bisection.steps()[1].verdict, StepVerdict::k_good);
  EXPECT_NEAR(result.confidence, 0.95 * 0.95, 1e-12);
}

TEST(BisectTest, TimingThatStaysUnknownNextToTheCulpritIsInconclusive) {
  // Prefix 4 never decides: the culprit is 4 or 5.
  auto world = [](std::size_t prefix, int) {
    if (prefix == 4) {
      return U;
    }
    return prefix >= 5 ? F : P;
  };
  auto sim = simulate(8, policy(BisectCheck::k_timing), world);
  const auto result = sim.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_inconclusive);
  EXPECT_NE(result.reason.find("one of patches 4..5"), std::string::npos) << result.reason;
  EXPECT_NE(result.reason.find("prefix 4/8 unknown"), std::string::npos) << result.reason;
  EXPECT_EQ(sim.runs[4], 3);  // the most samples allowed
}

TEST(BisectTest, TimingCulpritAtOneNeedsNoBaseRun) {
  auto sim = simulate(4, policy(BisectCheck::k_timing), steady(1));
  EXPECT_EQ(sim.bisection.result().culprit, 1u);
  EXPECT_EQ(sim.runs.count(0), 0u);
}

TEST(BisectTest, UntestablePrefixesAreSkipped) {
  // Prefixes 3 and 4 do not build (a case bisect cannot boot them); the
  // bug comes with 6.
  auto world = [](std::size_t prefix, int) {
    if (prefix == 3 || prefix == 4) {
      return S;
    }
    return prefix >= 6 ? F : P;
  };
  auto sim = simulate(8, policy(BisectCheck::k_case), world);
  EXPECT_EQ(sim.bisection.result().culprit, 6u);
  EXPECT_EQ(sim.bisection.result().end, BisectEnd::k_culprit);
  // The bug with 4, which cannot be booted: 3, 4 or 5 is the culprit.
  auto hidden = [](std::size_t prefix, int) {
    if (prefix == 3 || prefix == 4) {
      return S;
    }
    return prefix >= 4 ? F : P;
  };
  auto unsure = simulate(8, policy(BisectCheck::k_case), hidden);
  const auto result = unsure.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_inconclusive);
  EXPECT_NE(result.reason.find("one of patches 3..5"), std::string::npos) << result.reason;
}

TEST(BisectTest, BuildBreakFixedByALaterPatchIsHuntedBelowAPassingTip) {
  // Patch 3 breaks the build, patch 4 fixes it: the tip builds.
  auto world = [](std::size_t prefix, int) { return prefix == 3 ? F : P; };
  auto sim = simulate(8, policy(BisectCheck::k_build), world);
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 3u);
  EXPECT_DOUBLE_EQ(result.confidence, 1.0);
  // tip, 1, 2, 3, then 3 and 2 again (2 from the cache).
  EXPECT_EQ(result.cost.builds, 4);
  EXPECT_LT(result.cost.builds, 8);
  // Other checks stop at a tip that passes.
  auto boot = simulate(8, policy(BisectCheck::k_boot), world);
  EXPECT_EQ(boot.bisection.result().end, BisectEnd::k_tip_passes);
}

TEST(BisectTest, BuildThatNeverBreaksIsNoCulpritAfterTheHunt) {
  auto sim = simulate(4, policy(BisectCheck::k_build), [](std::size_t, int) { return P; });
  const auto result = sim.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_tip_passes);
  EXPECT_NE(result.reason.find("every one of the 4 prefixes passes"), std::string::npos);
}

TEST(BisectTest, UntestableTipIsInconclusive) {
  auto sim = simulate(8, policy(BisectCheck::k_case), [](std::size_t, int) { return S; });
  EXPECT_EQ(sim.bisection.result().end, BisectEnd::k_inconclusive);
  EXPECT_NE(sim.bisection.result().reason.find("the tip cannot be tested"), std::string::npos);
}

// Timing with a model: prefix K takes T[K]; a run is slower (fail) when
// its prefix takes more than THRESHOLD over the reference it is compared
// with: a prefix of this series, or of the good revision GOOD under
// k_against (the same K; GOOD's tip past its end). Records which pairs ran.
struct TimingSimulation {
  Bisection bisection;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (prefix, reference)
};

TimingSimulation simulate_timing(const std::vector<double>& t, TimingReference reference,
                                 double threshold = 0.05, const std::vector<double>& good = {}) {
  BisectPolicy p = policy(BisectCheck::k_timing);
  p.reference = reference;
  TimingSimulation sim{Bisection(t.size() - 1, p), {}};
  while (const auto prefix = sim.bisection.next()) {
    if (sim.pairs.size() > 500) {
      throw std::runtime_error("the bisection does not end");
    }
    const std::size_t ref = sim.bisection.reference();
    sim.pairs.emplace_back(*prefix, ref);
    const double against =
        reference == TimingReference::k_against ? good[std::min(ref, good.size() - 1)] : t[ref];
    BisectRun run;
    run.outcome = t[*prefix] > against * (1 + threshold) ? F : P;
    run.boots = 2;
    sim.bisection.record(run);
  }
  return sim;
}

TEST(BisectTimingTest, ARefactorSlowerThanTheBaseButNotThanItsPredecessorIsNotNamed) {
  // Patches 2 and 3 each cost 4 % (together 8 % over the base, each below
  // the 5 % threshold); patch 5 is a real step regression (+30 %).
  const std::vector<double> t = {100, 100, 104, 108, 108, 140, 140, 140, 140};
  auto sim = simulate_timing(t, TimingReference::k_last_good);
  auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 5u);
  // Confirmed as a step: 5 against 4, and 4 against what it was good against.
  const auto& steps = sim.bisection.steps();
  ASSERT_GE(steps.size(), 2u);
  EXPECT_EQ(steps[steps.size() - 2].prefix, 5u);
  EXPECT_EQ(steps[steps.size() - 2].reference, 4u);
  EXPECT_EQ(steps.back().prefix, 4u);
  EXPECT_EQ(steps.back().verdict, StepVerdict::k_good);
  // Prefix 4 was bad against the base earlier: it does not count against
  // its goodness against its predecessor.
  EXPECT_NEAR(result.confidence, 0.95 * 0.95, 1e-12);
  // Against the base, the first prefix slower than the base (3) is named:
  // the wrong question for a series.
  auto base = simulate_timing(t, TimingReference::k_base);
  EXPECT_EQ(base.bisection.result().culprit, 3u);
}

TEST(BisectTimingTest, ARealStepRegressionIsNamedWhereverItIs) {
  for (std::size_t k = 1; k <= 8; ++k) {
    std::vector<double> t(9, 100);
    for (std::size_t i = k; i < t.size(); ++i) {
      t[i] = 130;
    }
    // Faster patches before and after the step do not move it.
    for (std::size_t i = 1; i < t.size(); ++i) {
      t[i] -= static_cast<double>(i);
    }
    auto sim = simulate_timing(t, TimingReference::k_last_good);
    const auto result = sim.bisection.result();
    ASSERT_EQ(result.end, BisectEnd::k_culprit) << "step at " << k << ": " << result.reason;
    EXPECT_EQ(result.culprit, k);
    // Every step compared a prefix with a lower one (the last good state).
    for (const auto& [prefix, reference] : sim.pairs) {
      EXPECT_LT(reference, prefix);
    }
  }
}

TEST(BisectTimingTest, ALaterPatchLosingAnEarlierSpeedupIsAStepRegression) {
  // Patch 1 makes it 40 % faster, patch 6 loses most of that: still faster
  // than the base, but a regression against the last good state.
  const std::vector<double> t = {100, 60, 60, 60, 60, 60, 90, 90, 90};
  auto sim = simulate_timing(t, TimingReference::k_last_good);
  // Not slower than the base: nothing to bisect, as the tip is judged
  // against the base first.
  EXPECT_EQ(sim.bisection.result().end, BisectEnd::k_tip_passes);
  // Against a good revision that keeps the speedup, patch 6 is named.
  const std::vector<double> good = {100, 60, 60, 60, 60, 60, 60, 60, 60};
  auto against = simulate_timing(t, TimingReference::k_against, 0.05, good);
  ASSERT_EQ(against.bisection.result().end, BisectEnd::k_culprit);
  EXPECT_EQ(against.bisection.result().culprit, 6u);
}

TEST(BisectTimingTest, AGradualSlowdownIsInconclusiveNotPinnedOnOnePatch) {
  // Every patch 3 % slower: 27 % over the base, no patch 5 % over its predecessor.
  std::vector<double> t = {100};
  for (int i = 1; i <= 8; ++i) {
    t.push_back(t.back() * 1.03);
  }
  auto sim = simulate_timing(t, TimingReference::k_last_good);
  const auto result = sim.bisection.result();
  EXPECT_EQ(result.end, BisectEnd::k_inconclusive);
  EXPECT_FALSE(result.culprit.has_value());
  EXPECT_NE(result.reason.find("built up over several patches"), std::string::npos)
      << result.reason;
}

TEST(BisectTimingTest, AgainstAGoodRevisionNamesWhereTheRevisionsDiverge) {
  // perf-regression against zone-device-memmap v6 (instruction clock,
  // devdax-mem): 1-4 are v6's own patches (2/8 a refactor, +16 %); this
  // revision's 5/8 makes compound tails slower where v6's makes them faster.
  const std::vector<double> v6 = {100, 100, 116, 116, 115, 60, 60, 60, 58};
  const std::vector<double> bad = {100, 100, 116, 116, 115, 149, 149, 149, 149};
  auto sim = simulate_timing(bad, TimingReference::k_against, 0.05, v6);
  const auto result = sim.bisection.result();
  ASSERT_EQ(result.end, BisectEnd::k_culprit) << result.reason;
  EXPECT_EQ(result.culprit, 5u);
  for (const auto& [prefix, reference] : sim.pairs) {
    EXPECT_EQ(reference, prefix);  // prefix K of one against prefix K of the other
  }
  // Against the base (or the prefix before), 2/8 is a real step of +16 %:
  // only the good revision says it is paid back.
  EXPECT_EQ(simulate_timing(bad, TimingReference::k_base).bisection.result().culprit, 2u);
  EXPECT_EQ(simulate_timing(bad, TimingReference::k_last_good).bisection.result().culprit, 2u);
  // A reference shorter than the series: past its end, against its tip.
  auto short_good =
      simulate_timing(bad, TimingReference::k_against, 0.05, {100, 100, 116, 116, 115});
  EXPECT_EQ(short_good.bisection.result().culprit, 5u);
}

TEST(BisectTest, RecordingAfterTheEndIsAnError) {
  auto sim = simulate(2, policy(BisectCheck::k_build), steady(1));
  EXPECT_THROW(sim.bisection.record({}), std::logic_error);
  EXPECT_THROW(Bisection(0, policy(BisectCheck::k_case)), std::invalid_argument);
}

}  // namespace
}  // namespace kseries::bisect
