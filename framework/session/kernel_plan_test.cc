#include "session/kernel_plan.h"

#include <gtest/gtest.h>

namespace kseries::session {
namespace {

using Roles = std::vector<KernelRole>;
const Roles k_alone{KernelRole::k_candidate};
const Roles k_paired{KernelRole::k_base, KernelRole::k_candidate};

TEST(KernelPlanTest, TheGateJudgesTimingAgainstTheBaseAndPairsOnlyPairingOracles) {
  const Pairing timing{.oracle = nullptr, .judge_timing = true};
  EXPECT_EQ(session_roles(timing), k_paired);
  const Pairing pairing{.oracle = find_oracle("memmap-vs-base"), .judge_timing = true};
  EXPECT_EQ(session_roles(pairing), k_paired);
  // Fast vs slow in one boot, but its evidence that the fast path ran is
  // the base's work beside it (issue 45): paired too.
  const Pairing equivalence{.oracle = find_oracle("memmap-equivalence"), .judge_timing = true};
  EXPECT_EQ(session_roles(equivalence), k_paired);
  const Pairing single{.oracle = find_oracle("nt-ordering"), .judge_timing = true};
  EXPECT_EQ(session_roles(single), k_alone);
}

TEST(KernelPlanTest, BootBootsTheBaseWhenAskedOrWhenTheOraclePairs) {
  EXPECT_EQ(session_roles({.oracle = nullptr}), k_alone);
  EXPECT_EQ(session_roles({.oracle = find_oracle("hugetlb-tails")}), k_paired);
  EXPECT_EQ(session_roles({.oracle = find_oracle("memmap-equivalence"),
                           .judge_timing = true,
                           .baseline_asked = true}),
            k_paired);
  EXPECT_EQ(session_roles({.oracle = nullptr, .judge_timing = true, .against = true}),
            (Roles{KernelRole::k_reference, KernelRole::k_candidate}));
  // No series: the base is the subject, compared with itself when asked.
  EXPECT_EQ(session_roles({.series = false}), Roles{KernelRole::k_base});
  EXPECT_EQ(session_roles({.series = false, .baseline_asked = true}),
            (Roles{KernelRole::k_base, KernelRole::k_control}));
}

TEST(KernelPlanTest, ATimingBisectionAlwaysBootsItsReference) {
  EXPECT_EQ(session_roles({.oracle = find_oracle("memmap-equivalence"),
                           .judge_timing = true,
                           .baseline_asked = true}),
            k_paired);
  EXPECT_EQ(session_roles({.oracle = find_oracle("nt-ordering")}), k_alone);
  EXPECT_EQ(session_roles({.oracle = find_oracle("slow-path-work")}), k_paired);
}

}  // namespace
}  // namespace kseries::session
