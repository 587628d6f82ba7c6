#include "results/outcome.h"

#include <gtest/gtest.h>

namespace kseries::results {
namespace {

constexpr Outcome k_all[] = {Outcome::k_pass,       Outcome::k_fail, Outcome::k_xfail,
                             Outcome::k_xpass,      Outcome::k_skip, Outcome::k_error,
                             Outcome::k_interrupted};

TEST(OutcomeTest, EveryNameReadsBackAsItsOutcome) {
  for (const Outcome outcome : k_all) {
    const auto parsed = parse_outcome(outcome_name(outcome));
    ASSERT_TRUE(parsed.has_value()) << outcome_name(outcome);
    EXPECT_EQ(*parsed, outcome);
  }
  EXPECT_EQ(outcome_name(Outcome::k_xfail), "xfail");
  EXPECT_FALSE(parse_outcome("passed").has_value());
  EXPECT_FALSE(parse_outcome("").has_value());
}

TEST(OutcomeTest, FailuresAreLitsFailures) {
  EXPECT_FALSE(is_failure(Outcome::k_pass));
  EXPECT_FALSE(is_failure(Outcome::k_xfail));
  EXPECT_FALSE(is_failure(Outcome::k_skip));
  EXPECT_TRUE(is_failure(Outcome::k_fail));
  EXPECT_TRUE(is_failure(Outcome::k_xpass));
  EXPECT_TRUE(is_failure(Outcome::k_error));
  EXPECT_TRUE(is_failure(Outcome::k_interrupted));
}

TEST(OutcomeTest, AnExpectationTurnsFailIntoXfailAndPassIntoXpass) {
  EXPECT_EQ(expect_failure(Outcome::k_fail), Outcome::k_xfail);
  EXPECT_EQ(expect_failure(Outcome::k_pass), Outcome::k_xpass);
  EXPECT_EQ(expect_failure(Outcome::k_skip), Outcome::k_skip);
  EXPECT_EQ(expect_failure(Outcome::k_error), Outcome::k_error);
}

}  // namespace
}  // namespace kseries::results
