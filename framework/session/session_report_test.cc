#include "session/session_report.h"

#include <gtest/gtest.h>

#include "report/junit.h"
#include "session/oracle.h"

namespace kseries::session {
namespace {

class Quiet final : public Status {
 public:
  void progress(const std::string&) override {}
};

KernelUnderTest kernel(KernelRole role, const std::string& name,
                       const std::vector<std::string>& metrics) {
  KernelUnderTest k;
  k.role = role;
  k.name = name;
  for (const auto& metric : metrics) {
    auto& samples = k.timing[{"fsdax-mem", metric}];
    samples.unit = "vns";
    samples.rebinds = {100, 101, 100, 102, 101, 100};
    samples.rebind_blocks = {6};
  }
  return k;
}

TEST(SessionReport, AMetricMeasuredOnOneKernelOnlyFails) {
  SessionFacts facts;
  facts.target = "pmem";
  facts.test_case = "memmap-timing";
  Quiet quiet;
  std::vector<KernelUnderTest> kernels{
      kernel(KernelRole::k_base, "base", {"memmap_init_vns", "bind_vns"}),
      kernel(KernelRole::k_candidate, "v10", {"bind_vns"})};
  const auto report = render_session(facts, kernels, SessionResult{}, quiet);
  EXPECT_TRUE(report.failed);
  EXPECT_NE(report.text.find("memmap_init_vns of fsdax-mem measured on base and not on v10"),
            std::string::npos)
      << report.text;

  kernels[1] = kernel(KernelRole::k_candidate, "v10", {"memmap_init_vns", "bind_vns"});
  EXPECT_FALSE(render_session(facts, kernels, SessionResult{}, quiet).failed);

  // A count exists only where what it counts does (a fast-path kprobe).
  auto& calls = kernels[1].timing[{"fsdax-mem", "fastpath_calls"}];
  calls.unit = "count";
  calls.rebinds = {0, 0, 0, 0, 0};
  EXPECT_FALSE(render_session(facts, kernels, SessionResult{}, quiet).failed);
}

// A guest's "status=FAIL" or "status=error" read as a pass (only "fail"
// failed): anything but pass and skip fails its testcase.
TEST(SessionReport, AResultStatusOtherThanPassOrSkipFails) {
  SessionFacts facts;
  facts.target = "pmem";
  facts.test_case = "demo";
  Quiet quiet;
  for (const std::string status : {"FAIL", "error", ""}) {
    BootRecord record;
    record.kernel = "v10";
    record.powered_off = true;
    record.events = guest::parse_protocol("KSERIES result status=" + status +
                                          " subject=fsdax-mem reason=broken\n");
    SessionResult result;
    result.records = {record};
    result.boots = 1;
    const auto report = render_session(facts, {}, result, quiet);
    EXPECT_TRUE(report.failed) << status;
    bool failed_case = false;
    for (const auto& test : report.suite.cases) {
      failed_case |=
          test.name.rfind("fsdax-mem", 0) == 0 && test.status == report::CaseStatus::k_failed;
    }
    EXPECT_TRUE(failed_case) << status;
  }
}

// A guest's "pass" only says the evidence was collected: a setup every
// oracle verdict of which is "not applicable" is not applicable, and a
// session of such setups is not a pass (the gate's cell: skip).
TEST(SessionReport, ASetupWhoseEveryVerdictIsNotApplicableIsNotApplicable) {
  SessionFacts facts;
  facts.target = "kasan";
  facts.test_case = "memmap-equivalence";
  Quiet quiet;
  BootRecord record;
  record.kernel = "zone-device-memmap/v10";
  record.role = KernelRole::k_candidate;
  record.powered_off = true;
  record.events = guest::parse_protocol(
      "KSERIES result status=pass subject=fsdax-mem reason=dumps collected\n"
      "KSERIES result status=pass subject=devdax-mem reason=dumps collected\n");
  record.verdicts = {{"fsdax-mem", oracle::VerdictStatus::k_skip, "not applicable: x", ""},
                     {"devdax-mem", oracle::VerdictStatus::k_skip, "not applicable: y", ""}};
  BootRecord base = record;
  base.kernel = "base";
  base.role = KernelRole::k_base;
  SessionResult result;
  result.records = {base, record};
  result.boots = 1;
  facts.oracle = find_oracle("memmap-equivalence");
  auto report = render_session(facts, {}, result, quiet);
  EXPECT_FALSE(report.failed);
  EXPECT_TRUE(report::only_boots_ran(report.suite));
  // One setup with a real verdict: that setup passes, the session too.
  result.records[1].verdicts[1].status = oracle::VerdictStatus::k_pass;
  report = render_session(facts, {}, result, quiet);
  EXPECT_FALSE(report::only_boots_ran(report.suite));
}

}  // namespace
}  // namespace kseries::session
