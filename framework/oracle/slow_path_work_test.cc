#include "oracle/slow_path_work.h"

#include <gtest/gtest.h>

namespace kseries::oracle {
namespace {

guest::Event measure(const std::string& setup, double value, const std::string& kind) {
  guest::Event e;
  e.verb = "measure";
  e.fields = {{"setup", setup},
              {"iter", "2"},
              {"metric", "memmap_init_ns"},
              {"value", std::to_string(value)},
              {"unit", "ns"},
              {"kind", kind}};
  return e;
}

TEST(SlowPathWork, CollectsOnlyTheWorkBindsPerSetup) {
  const auto work =
      collect_slow_path_work({measure("fsdax-mem", 100, "work"), measure("fsdax-mem", 110, "work"),
                              measure("fsdax-mem", 5, "rebind"), measure("devdax-mem", 7, "work")});
  ASSERT_EQ(work.size(), 2u);
  EXPECT_EQ(work.at("fsdax-mem"), (std::vector<double>{100, 110}));
  EXPECT_EQ(work.at("devdax-mem"), (std::vector<double>{7}));
}

TEST(SlowPathWork, SameWorkUnderTheInstructionClockPasses) {
  const auto v =
      judge_slow_path_work("fsdax-mem", {1000, 1000}, {1020, 1019}, WorkClock::k_instructions);
  EXPECT_EQ(v.status, VerdictStatus::k_pass) << v.summary;
  EXPECT_NE(v.summary.find("+2.0%"), std::string::npos) << v.summary;
}

TEST(SlowPathWork, AFastPathCutFailsNamingTheFigures) {
  const auto v =
      judge_slow_path_work("devdax-mem", {1000, 1000}, {600, 600}, WorkClock::k_instructions);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("the fast path ran"), std::string::npos) << v.summary;
  EXPECT_NE(v.summary.find("-40.0%"), std::string::npos) << v.summary;
}

TEST(SlowPathWork, TheBoundIsACutNotAnyChange) {
  EXPECT_EQ(judge_slow_path_work("s", {1000}, {905}, WorkClock::k_instructions).status,
            VerdictStatus::k_pass);
  EXPECT_EQ(judge_slow_path_work("s", {1000}, {895}, WorkClock::k_instructions).status,
            VerdictStatus::k_fail);
  EXPECT_EQ(judge_slow_path_work("s", {1000}, {1500}, WorkClock::k_instructions).status,
            VerdictStatus::k_pass);
}

TEST(SlowPathWork, NoSamplesIsInconclusiveNeverAPass) {
  const auto v = judge_slow_path_work("s", {1000}, {}, WorkClock::k_instructions);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("inconclusive"), std::string::npos) << v.summary;
  EXPECT_EQ(judge_slow_path_work("s", {}, {1}, WorkClock::k_wall).status, VerdictStatus::k_fail);
}

TEST(SlowPathWork, WallClockDecidesOnlyWhenTheIntervalDoes) {
  const std::vector<double> base{1000, 1010, 990, 1005, 995, 1002, 998};
  const std::vector<double> same{1001, 1009, 991, 1004, 996, 1003, 997};
  const std::vector<double> cut{500, 505, 495, 502, 498, 501, 499};
  const std::vector<double> noisy{300, 1900, 700, 1500, 400, 1800, 600};
  EXPECT_EQ(judge_slow_path_work("s", base, same, WorkClock::k_wall).status, VerdictStatus::k_pass);
  EXPECT_EQ(judge_slow_path_work("s", base, cut, WorkClock::k_wall).status, VerdictStatus::k_fail);
  const auto v = judge_slow_path_work("s", base, noisy, WorkClock::k_wall);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("inconclusive"), std::string::npos) << v.summary;
}

}  // namespace
}  // namespace kseries::oracle
