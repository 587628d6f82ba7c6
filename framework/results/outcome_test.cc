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

TEST(OutcomeTest, AFoldIsTheWorstOutcome) {
  const auto fold_of = [](std::initializer_list<Outcome> outcomes) {
    return fold(std::span<const Outcome>(outcomes.begin(), outcomes.size()));
  };
  EXPECT_EQ(fold_of({}), Outcome::k_skip);
  EXPECT_EQ(fold_of({Outcome::k_pass, Outcome::k_skip}), Outcome::k_pass);
  EXPECT_EQ(fold_of({Outcome::k_pass, Outcome::k_xfail, Outcome::k_skip}), Outcome::k_xfail);
  EXPECT_EQ(fold_of({Outcome::k_xfail, Outcome::k_fail}), Outcome::k_fail);
  EXPECT_EQ(fold_of({Outcome::k_fail, Outcome::k_xpass}), Outcome::k_xpass);
  EXPECT_EQ(fold_of({Outcome::k_error, Outcome::k_xpass, Outcome::k_pass}), Outcome::k_error);
  EXPECT_EQ(fold_of({Outcome::k_error, Outcome::k_interrupted}), Outcome::k_interrupted);
  // The order does not matter.
  EXPECT_EQ(fold_of({Outcome::k_fail, Outcome::k_pass}),
            fold_of({Outcome::k_pass, Outcome::k_fail}));
}

TEST(OutcomeTest, EveryOutcomeHasOneVerdictWord) {
  EXPECT_EQ(verdict_word(Outcome::k_pass), "PASS");
  EXPECT_EQ(verdict_word(Outcome::k_xfail), "EXPECTED");
  EXPECT_EQ(verdict_word(Outcome::k_fail), "FAIL");
  EXPECT_EQ(verdict_word(Outcome::k_xpass), "FAIL");
  EXPECT_EQ(verdict_word(Outcome::k_error), "ERROR");
  EXPECT_EQ(verdict_word(Outcome::k_interrupted), "INTERRUPTED");
  EXPECT_EQ(verdict_word(Outcome::k_skip), "SKIP");
}

}  // namespace
}  // namespace kseries::results
