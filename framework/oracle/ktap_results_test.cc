#include "oracle/ktap_results.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries::oracle {
namespace {

nlohmann::json node(const std::string& name, const std::string& status,
                    std::vector<nlohmann::json> subtests = {}) {
  return {{"name", name}, {"status", status}, {"subtests", subtests}};
}

TEST(KtapResults, FlattensEveryLevelWithItsOwnStatus) {
  // run_vmtests.sh -t hmm: the program failed (exit 1) although its only
  // failing harness test is one of three.
  const auto root = node("main", "FAILURE",
                         {node("test_hmm.sh smoke", "FAILURE",
                               {node("hmm.open_close", "SUCCESS"), node("hmm.anon_read", "FAILURE"),
                                node("hmm.coherent", "SKIPPED")}),
                          node("gup_test -u", "SUCCESS")});
  const auto tests = flatten_ktap(root, "hmm");
  ASSERT_EQ(tests.size(), 5u);
  EXPECT_EQ(tests[0].path, "hmm/test_hmm.sh smoke");
  EXPECT_EQ(tests[0].outcome, KtapOutcome::k_fail);
  EXPECT_EQ(tests[1].path, "hmm/test_hmm.sh smoke/hmm.open_close");
  EXPECT_EQ(tests[1].outcome, KtapOutcome::k_pass);
  EXPECT_EQ(tests[2].outcome, KtapOutcome::k_fail);
  EXPECT_EQ(tests[3].outcome, KtapOutcome::k_skip);
  EXPECT_EQ(tests[4].path, "hmm/gup_test -u");
}

TEST(KtapResults, NamesMissingAndRepeatedTestsApart) {
  // kunit_parser's "missing expected subtest!": a crashed test with no name.
  const auto root = node("main", "FAILURE",
                         {node("prog", "TEST_CRASHED",
                               {node("a", "SUCCESS"), node("", "TEST_CRASHED"),
                                node("a", "SUCCESS"), node("", "TEST_CRASHED")})});
  const auto tests = flatten_ktap(root, "s");
  ASSERT_EQ(tests.size(), 5u);
  EXPECT_EQ(tests[0].outcome, KtapOutcome::k_crashed);
  EXPECT_EQ(tests[2].path, "s/prog/#2");
  EXPECT_EQ(tests[3].path, "s/prog/a #2");
  EXPECT_EQ(tests[4].path, "s/prog/#4");
}

TEST(KtapResults, ADocumentWithoutTestsIsTheSuitesOwnResult) {
  const auto tests = flatten_ktap(node("<missing>", "FAILURE_TO_PARSE_TESTS"), "memcpy_kunit");
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].path, "memcpy_kunit");
  EXPECT_EQ(tests[0].outcome, KtapOutcome::k_crashed);
}

TEST(KtapResults, RefusesWhatIsNotTheParsersTree) {
  EXPECT_THROW(flatten_ktap(nlohmann::json::array(), "s"), Error);
  EXPECT_THROW(flatten_ktap(node("main", "SUCCESS", {node("a", "MAYBE")}), "s"), Error);
  nlohmann::json no_status = node("main", "SUCCESS");
  no_status["subtests"].push_back({{"name", "a"}});
  EXPECT_THROW(flatten_ktap(no_status, "s"), Error);
  nlohmann::json deep = node("leaf", "SUCCESS");
  for (int i = 0; i < 40; ++i) {
    deep = node("level", "SUCCESS", {deep});
  }
  EXPECT_THROW(flatten_ktap(deep, "s"), Error);
}

TEST(KtapResults, TheEncodingIsOneLineATestWhateverItsName) {
  const auto root =
      node("main", "SUCCESS", {node("tab\there", "SUCCESS"), node("new\nline", "SKIPPED")});
  EXPECT_EQ(encode_ktap(flatten_ktap(root, "s")), "pass\ts/tab here\nskip\ts/new line\n");
}

}  // namespace
}  // namespace kseries::oracle
