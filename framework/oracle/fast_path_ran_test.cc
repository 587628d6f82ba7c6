#include "oracle/fast_path_ran.h"

#include <gtest/gtest.h>

namespace kseries::oracle {
namespace {

using Work = std::vector<double>;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

SetupVerdict identical() {
  return {"fsdax-mem", VerdictStatus::k_pass, "524288 struct pages identical fast vs slow", ""};
}

// v10 under icount, from the 2026-12-01 lab notes' figures: -29 % on fsdax.
TEST(FastPathRan, AFastPathChangesTheWorkByTensOfPercent) {
  const auto evidence =
      fast_path_evidence(Work{41000000}, Work{29000000}, WorkClock::k_instructions);
  EXPECT_EQ(evidence.ran, PathRan::k_ran);
  const auto verdict = settle_with_evidence(identical(), evidence, SlowPathContract::k_none);
  EXPECT_EQ(verdict.status, VerdictStatus::k_pass);
  EXPECT_TRUE(has(verdict.summary, "fast path ran: memmap_init_zone_device() work -29.27 %"))
      << verdict.summary;
}

// A kernel that runs the base's code (no fast path compiled in, or never
// taken, or built from other sources): identical dumps are no pass.
TEST(FastPathRan, TheBasesWorkMeansTheSeriesCodeDidNotRun) {
  const auto evidence =
      fast_path_evidence(Work{41000000}, Work{41003000}, WorkClock::k_instructions);
  EXPECT_EQ(evidence.ran, PathRan::k_did_not_run);
  const auto verdict = settle_with_evidence(identical(), evidence, SlowPathContract::k_none);
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_TRUE(has(verdict.summary, "error: the series' code did not run")) << verdict.summary;
  EXPECT_TRUE(has(verdict.summary, "+0.01 %")) << verdict.summary;
}

// Sanitizer builds keep the series on the slow path by contract: not
// applicable, never a pass.
TEST(FastPathRan, ASlowPathByContractIsNotApplicable) {
  const auto evidence =
      fast_path_evidence(Work{90000000}, Work{90010000}, WorkClock::k_instructions);
  const auto verdict = settle_with_evidence(identical(), evidence, SlowPathContract::k_sanitizer);
  EXPECT_EQ(verdict.status, VerdictStatus::k_skip);
  EXPECT_TRUE(has(verdict.summary, "not applicable: the series keeps to the slow path"))
      << verdict.summary;
}

// page_ref_set on from boot (trace_event=page_ref:page_ref_set, the
// 2026-12-06 pmem-traced run): v10's fast bind of fsdax-mem called the slow
// path for all 524288 struct pages, as its slow bind: not applicable. Had
// the series' fast path run with the tracepoint on, that breaks its contract.
TEST(FastPathRan, PageRefSetOnFromBootIsNotApplicableUnlessTheFastPathRan) {
  const auto slow = fast_path_from_counts(524288, 524288);
  const auto not_run = settle_with_evidence(identical(), slow, SlowPathContract::k_tracepoint_on);
  EXPECT_EQ(not_run.status, VerdictStatus::k_skip) << not_run.summary;
  EXPECT_TRUE(has(not_run.summary, "while page_ref_set is on")) << not_run.summary;
  const auto ran = settle_with_evidence(identical(), fast_path_from_counts(1, 524288),
                                        SlowPathContract::k_tracepoint_on);
  EXPECT_EQ(ran.status, VerdictStatus::k_fail);
  EXPECT_TRUE(has(ran.summary, "fast path ran while page_ref_set was on")) << ran.summary;
}

// The series kernel's own count, the first evidence: v10's fast bind of
// fsdax-mem on 6.12.118 seeds its template with one call; a kernel with the
// fast path compiled out calls it for every struct page, as its slow bind.
TEST(FastPathRan, TheSlowPathsOwnCountDecidesWhereItExists) {
  EXPECT_EQ(fast_path_from_counts(1, 524288).ran, PathRan::k_ran);
  const auto none = fast_path_from_counts(524288, 524288);
  EXPECT_EQ(none.ran, PathRan::k_did_not_run);
  EXPECT_TRUE(has(none.facts,
                  "the fast bind called the slow path's __init_zone_device_page() "
                  "524288 time(s), the slow bind 524288: every struct page took "
                  "the slow path"))
      << none.facts;
  EXPECT_EQ(fast_path_from_counts(0, 0).ran, PathRan::k_inconclusive);
}

// known-bad/tracepoint-ignore runs its fast path in the slow bind too: its
// counts are equal (1 and 1 on fsdax-mem, 1025 and 1025 on devdax-mem, run
// 20261206-200457-gate), which alone read as "every struct page took the
// slow path" while its fast-bind work was -32 % of the base's. Equal counts
// with the work saying the series' code ran: it ran. Equal counts with the
// work of the base's slow path (fast path compiled out): it did not.
TEST(FastPathRan, EqualCountsAndAChangedWorkMeanTheSlowBindTookTheSeriesPath) {
  const auto work_ran = fast_path_evidence({29548600}, {20074950}, WorkClock::k_instructions);
  ASSERT_EQ(work_ran.ran, PathRan::k_ran);
  for (const double calls : {1.0, 1025.0}) {
    const auto both = fast_path_from_counts_and_work(calls, calls, work_ran);
    EXPECT_EQ(both.ran, PathRan::k_ran) << both.facts;
    EXPECT_TRUE(has(both.facts, "the slow bind took the series' own path too")) << both.facts;
  }
  const auto work_same = fast_path_evidence({29548600}, {30086400}, WorkClock::k_instructions);
  const auto none = fast_path_from_counts_and_work(524288, 524288, work_same);
  EXPECT_EQ(none.ran, PathRan::k_did_not_run);
  EXPECT_TRUE(has(none.facts, "every struct page took the slow path")) << none.facts;
  EXPECT_EQ(fast_path_from_counts_and_work(1, 524288, work_same).ran, PathRan::k_ran);
}

// A kernel whose slow path is the series' own drifts from the base's by a few
// percent (v10 with its fast path compiled out: +1.1 % to +2.3 %): not a
// fast path.
TEST(FastPathRan, ASlowPathThatDriftsAFewPercentIsNotAFastPath) {
  EXPECT_EQ(fast_path_evidence(Work{29550820}, Work{30217780}, WorkClock::k_instructions).ran,
            PathRan::k_did_not_run);
}

TEST(FastPathRan, NoWorkMeasuredIsInconclusiveAndFails) {
  const auto evidence = fast_path_evidence(Work{41000000}, Work{}, WorkClock::k_instructions);
  EXPECT_EQ(evidence.ran, PathRan::k_inconclusive);
  const auto verdict = settle_with_evidence(identical(), evidence, SlowPathContract::k_none);
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_TRUE(has(verdict.summary, "inconclusive: no memmap_init_zone_device() work measured"))
      << verdict.summary;
}

TEST(FastPathRan, AFailedComparisonNeedsNoEvidenceButIsKept) {
  SetupVerdict failed{"fsdax-mem", VerdictStatus::k_fail, "differs at pfn 0x100003", ""};
  const auto evidence =
      fast_path_evidence(Work{41000000}, Work{29000000}, WorkClock::k_instructions);
  EXPECT_EQ(settle_with_evidence(failed, evidence, SlowPathContract::k_none).status,
            VerdictStatus::k_fail);
}

TEST(FastPathRan, TheBaseHasOnePathSoItsPassIsNotApplicable) {
  const auto verdict = base_has_one_path(identical());
  EXPECT_EQ(verdict.status, VerdictStatus::k_skip);
  EXPECT_TRUE(has(verdict.summary, "not applicable: the base kernel has one path"));
  SetupVerdict broken{"fsdax-mem", VerdictStatus::k_fail, "unwritten page not detected", ""};
  EXPECT_EQ(base_has_one_path(broken).status, VerdictStatus::k_fail);
}

// Under the wall clock a decisive change is evidence; noise is not.
TEST(FastPathRan, TheWallClockDecidesOnlyWhenTheComparisonDoes) {
  Work base, fast, noisy;
  for (int i = 0; i < 30; ++i) {
    base.push_back(1000 + (i % 5) * 10);
    fast.push_back(700 + (i % 5) * 10);
    noisy.push_back(800 + (i % 7) * 90);
  }
  EXPECT_EQ(fast_path_evidence(base, fast, WorkClock::k_wall).ran, PathRan::k_ran);
  EXPECT_EQ(fast_path_evidence(base, noisy, WorkClock::k_wall).ran, PathRan::k_inconclusive);
}

}  // namespace
}  // namespace kseries::oracle
