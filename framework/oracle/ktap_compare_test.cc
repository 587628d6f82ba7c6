#include "oracle/ktap_compare.h"

#include <gtest/gtest.h>

namespace kseries::oracle {
namespace {

using O = KtapOutcome;

KtapSide side(const std::string& kernel, std::vector<std::vector<KtapTest>> boots) {
  return {kernel, std::move(boots)};
}

const SetupVerdict& find(const std::vector<SetupVerdict>& verdicts, const std::string& setup) {
  for (const auto& v : verdicts) {
    if (v.setup == setup) {
      return v;
    }
  }
  static const SetupVerdict none{"<none>", VerdictStatus::k_fail, "no such verdict", ""};
  ADD_FAILURE() << "no verdict for " << setup;
  return none;
}

bool says(const SetupVerdict& v, const std::string& text) {
  return v.summary.find(text) != std::string::npos;
}

TEST(KtapCompare, ANewFailureFailsAndAPreExistingOneDoesNot) {
  const auto base = side("base", {{{"mm/a", O::k_pass}, {"mm/b", O::k_fail}, {"mm/c", O::k_pass}}});
  const auto cand = side("v10", {{{"mm/a", O::k_fail}, {"mm/b", O::k_fail}, {"mm/c", O::k_pass}}});
  const auto v = judge_ktap_vs_base("mm", base, cand);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].setup, "mm (summary)");
  EXPECT_EQ(v[0].status, VerdictStatus::k_fail);
  EXPECT_TRUE(says(v[0], "1 new failure(s), 1 pre-existing")) << v[0].summary;
  EXPECT_TRUE(says(v[0], "new: mm/a")) << v[0].summary;
  EXPECT_EQ(find(v, "mm/a").status, VerdictStatus::k_fail);
  EXPECT_TRUE(says(find(v, "mm/a"), "base pass 1 of 1 boot")) << find(v, "mm/a").summary;
  EXPECT_EQ(find(v, "mm/b").status, VerdictStatus::k_skip);
  EXPECT_TRUE(says(find(v, "mm/b"), "pre-existing"));
  EXPECT_EQ(find(v, "mm/c").status, VerdictStatus::k_pass);
}

TEST(KtapCompare, ACrashedTestIsAFailure) {
  const auto v = judge_ktap_vs_base("k", side("base", {{{"k/t", O::k_pass}}}),
                                    side("v10", {{{"k/t", O::k_crashed}}}));
  EXPECT_EQ(find(v, "k/t").status, VerdictStatus::k_fail);
  EXPECT_TRUE(says(find(v, "k/t"), "crashed 1"));
}

TEST(KtapCompare, SkippedOnOneSideIsNamed) {
  const auto base = side("base", {{{"s/ran-here", O::k_pass}, {"s/ran-there", O::k_skip}}});
  const auto cand = side("v10", {{{"s/ran-here", O::k_skip}, {"s/ran-there", O::k_pass}}});
  const auto v = judge_ktap_vs_base("s", base, cand);
  EXPECT_EQ(find(v, "s/ran-here").status, VerdictStatus::k_skip);
  EXPECT_TRUE(says(find(v, "s/ran-here"), "skipped on the candidate, ran on the base"));
  EXPECT_EQ(find(v, "s/ran-there").status, VerdictStatus::k_pass);
  EXPECT_TRUE(says(find(v, "s/ran-there"), "skipped on the base"));
  EXPECT_TRUE(says(v[0], "2 skipped on one side only")) << v[0].summary;
  // Skipped on the base and failing on the candidate: a new failure.
  const auto fails = judge_ktap_vs_base("s", side("base", {{{"s/x", O::k_skip}}}),
                                        side("v10", {{{"s/x", O::k_fail}}}));
  EXPECT_EQ(find(fails, "s/x").status, VerdictStatus::k_fail);
}

TEST(KtapCompare, FlakyIsReportedWithItsCounts) {
  // Fails in 1 of 3 boots, the base never: below the bisection's max(2, n/6).
  const auto base =
      side("base", {{{"s/t", O::k_pass}}, {{"s/t", O::k_pass}}, {{"s/t", O::k_pass}}});
  const auto cand = side("v10", {{{"s/t", O::k_pass}}, {{"s/t", O::k_fail}}, {{"s/t", O::k_pass}}});
  const auto v = judge_ktap_vs_base("s", base, cand);
  EXPECT_EQ(find(v, "s/t").status, VerdictStatus::k_skip);
  EXPECT_TRUE(says(find(v, "s/t"), "flaky")) << find(v, "s/t").summary;
  EXPECT_TRUE(says(find(v, "s/t"), "candidate pass 2, fail 1 of 3 boots"));
  // Twice in three boots, never on the base: a new failure.
  const auto twice =
      side("v10", {{{"s/t", O::k_fail}}, {{"s/t", O::k_fail}}, {{"s/t", O::k_pass}}});
  EXPECT_EQ(find(judge_ktap_vs_base("s", base, twice), "s/t").status, VerdictStatus::k_fail);
  // Flaky on both sides: pre-existing.
  const auto flaky_base =
      side("base", {{{"s/t", O::k_fail}}, {{"s/t", O::k_pass}}, {{"s/t", O::k_pass}}});
  const auto both = judge_ktap_vs_base("s", flaky_base, twice);
  EXPECT_EQ(find(both, "s/t").status, VerdictStatus::k_skip);
  EXPECT_TRUE(says(find(both, "s/t"), "fails on the base too"));
}

TEST(KtapCompare, ATestThatVanishesFailsAndAFixedOneSaysSo) {
  const auto base = side("base", {{{"s/gone", O::k_pass}, {"s/fixed", O::k_fail}}});
  const auto cand = side("v10", {{{"s/fixed", O::k_pass}}});
  const auto v = judge_ktap_vs_base("s", base, cand);
  EXPECT_EQ(find(v, "s/gone").status, VerdictStatus::k_fail);
  EXPECT_TRUE(says(find(v, "s/gone"), "no longer reported"));
  EXPECT_EQ(find(v, "s/fixed").status, VerdictStatus::k_pass);
  EXPECT_TRUE(says(find(v, "s/fixed"), "fixed"));
}

TEST(KtapCompare, MissingInOneBootCountsAsAFailureOfThatBoot) {
  const auto base = side("base", {{{"s/t", O::k_pass}}, {{"s/t", O::k_pass}}});
  const auto cand = side("v10", {{{"s/t", O::k_pass}}, {{"s/other", O::k_pass}}});
  const auto v = judge_ktap_vs_base("s", base, cand);
  EXPECT_TRUE(says(find(v, "s/t"), "missing 1")) << find(v, "s/t").summary;
}

TEST(KtapCompare, NoRunOnOneSideIsInconclusive) {
  const auto v = judge_ktap_vs_base("s", side("base", {}), side("v10", {{{"s/t", O::k_pass}}}));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_fail);
  EXPECT_TRUE(says(v[0], "no KTAP of s from base"));
}

TEST(KtapCompare, TheBaseSummaryNeverFails) {
  const auto s = summarize_ktap("s", side("base", {{{"s/a", O::k_pass}, {"s/b", O::k_fail}}}));
  EXPECT_EQ(s.status, VerdictStatus::k_pass);
  EXPECT_TRUE(says(s, "1 pass, 1 fail")) << s.summary;
  EXPECT_TRUE(says(s, "failing: s/b"));
}

TEST(KtapCompare, TheFailuresAFlakyTestNeedsFollowTheBisection) {
  EXPECT_EQ(ktap_failures_needed(1), 1);
  EXPECT_EQ(ktap_failures_needed(3), 2);
  EXPECT_EQ(ktap_failures_needed(18), 3);
}

}  // namespace
}  // namespace kseries::oracle
