#include "session/oracle.h"

#include <gtest/gtest.h>

#include "cases/case_def.h"
#include "core/error.h"
#include "testing/temp_dir.h"

#include <algorithm>
#include <filesystem>

namespace kseries::session {
namespace {

TEST(OracleRegistry, EveryRegisteredOracleIsFoundByItsNameOnce) {
  const auto names = oracle_names();
  ASSERT_EQ(names.size(), 7u);  // oracle_registry.cc: seven
  for (const auto& name : names) {
    const Oracle* oracle = find_oracle(name);
    ASSERT_NE(oracle, nullptr) << name;
    EXPECT_EQ(oracle->name(), name);
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
  }
  EXPECT_EQ(find_oracle(""), nullptr);
  try {
    find_oracle("crystal-ball");
    FAIL() << "found";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown oracle 'crystal-ball' (known: "
                                         "memmap-equivalence, memmap-vs-base"),
              std::string::npos)
        << e.what();
  }
}

// Every case bundled in testcases/ names an oracle the registry has.
TEST(OracleRegistry, EveryBundledCaseNamesARegisteredOracle) {
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::source_dir() / "testcases")) {
    if (!std::filesystem::exists(entry.path() / "case.conf")) {
      continue;
    }
    const auto test_case =
        cases::load_case(testing::source_dir() / "testcases", entry.path().filename().string());
    EXPECT_NO_THROW(find_oracle(test_case.oracle)) << test_case.name;
  }
}

guest::Event event(const std::string& verb, std::map<std::string, std::string> fields) {
  guest::Event e;
  e.verb = verb;
  e.fields = std::move(fields);
  return e;
}

BootRecord work_boot(KernelRole role, double ns, qemu::Clock clock) {
  BootRecord r;
  r.role = role;
  r.kernel = role_name(role);
  r.round = 1;
  r.powered_off = true;
  r.clock = clock;
  r.events = {event("result", {{"status", "pass"}, {"subject", "fsdax-mem"}}),
              event("measure", {{"setup", "fsdax-mem"},
                                {"iter", "2"},
                                {"metric", "memmap_init_ns"},
                                {"value", std::to_string(ns)},
                                {"unit", "ns"},
                                {"kind", "work"}})};
  return r;
}

TEST(OracleRegistry, SlowPathWorkJudgesTheCandidateAgainstItsRoundsBaseline) {
  const Oracle& oracle = *find_oracle("slow-path-work");
  ASSERT_TRUE(oracle.needs_baseline());
  std::vector<BootRecord> records{work_boot(KernelRole::k_base, 1000, qemu::Clock::k_icount),
                                  work_boot(KernelRole::k_candidate, 500, qemu::Clock::k_icount)};
  for (auto& r : records) {
    oracle.judge_boot(r);
    EXPECT_TRUE(missing_evidence(oracle, r).empty());
  }
  const auto pairs = judge_pairs(oracle, records);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].verdict.status, oracle::VerdictStatus::k_fail);
  EXPECT_NE(pairs[0].verdict.summary.find("the fast path ran"), std::string::npos);

  records[1] = work_boot(KernelRole::k_candidate, 990, qemu::Clock::k_icount);
  oracle.judge_boot(records[1]);
  EXPECT_EQ(judge_pairs(oracle, records)[0].verdict.status, oracle::VerdictStatus::k_pass);
}

TEST(OracleRegistry, APassedSetupWithoutWorkSamplesIsMissingEvidence) {
  const Oracle& oracle = *find_oracle("slow-path-work");
  BootRecord r = work_boot(KernelRole::k_candidate, 1000, qemu::Clock::k_icount);
  r.events.pop_back();  // the result stays, the measurement is gone
  oracle.judge_boot(r);
  const auto problems = missing_evidence(oracle, r);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("fsdax-mem"), std::string::npos);
}

}  // namespace
}  // namespace kseries::session
