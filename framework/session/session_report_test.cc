#include "session/session_report.h"

#include <gtest/gtest.h>

#include "core/json_text.h"
#include "report/junit.h"
#include "results/session_record.h"
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

// What render_session writes is what the renderers read (results/
// session_record.h): the session's figures through results.json's text.
TEST(SessionReport, ResultsJsonReadsBackAsTheSessionsRecord) {
  SessionFacts facts;
  facts.target = "pmem";
  facts.test_case = "memmap-timing";
  facts.accel = "tcg";
  facts.memory_model = "ddr4";
  Quiet quiet;
  std::vector<KernelUnderTest> kernels{kernel(KernelRole::k_base, "base", {"memmap_init_vns"}),
                                       kernel(KernelRole::k_candidate, "v10", {"memmap_init_vns"})};
  kernels[1].timing.begin()->second.rebinds = {50, 51, 50, 52, 51, 50};
  kernels[1].boots = 1;
  BootRecord boot;
  boot.kernel = "v10";
  boot.role = KernelRole::k_candidate;
  boot.round = 1;
  boot.seconds = 7.5;
  boot.problems = {"no result for fsdax-mem"};
  boot.verdicts = {{"fsdax-mem", oracle::VerdictStatus::k_pass, "equal", ""}};
  SessionResult result;
  result.records = {boot};
  result.boots = 1;
  const auto report = render_session(facts, kernels, result, quiet);
  const auto r =
      results::session_record_from(parse_json_text(json_text(results::to_json(report.record))));
  EXPECT_EQ(r.target, "pmem");
  EXPECT_EQ(r.test_case, "memmap-timing");
  EXPECT_EQ(r.accel, "tcg");
  EXPECT_EQ(r.memory_model, "ddr4");
  EXPECT_TRUE(r.interleaved);
  EXPECT_EQ(r.failed, report.failed);
  EXPECT_TRUE(r.failed);  // the boot's problem
  ASSERT_EQ(r.boots.size(), 1u);
  EXPECT_EQ(r.boots[0].kernel, "v10");
  EXPECT_EQ(r.boots[0].role, "candidate");
  EXPECT_EQ(r.boots[0].round, 1);
  EXPECT_EQ(r.boots[0].seconds, 7.5);
  EXPECT_EQ(r.boots[0].problems, boot.problems);
  ASSERT_EQ(r.oracle.size(), 1u);
  EXPECT_EQ(r.oracle[0].setup, "fsdax-mem");
  EXPECT_EQ(r.oracle[0].status, "pass");
  const auto& samples = r.kernels.at("v10").setups.at("fsdax-mem").at("memmap_init_vns");
  EXPECT_EQ(samples.rebinds, kernels[1].timing.begin()->second.rebinds);
  EXPECT_EQ(samples.unit, "vns");
  EXPECT_EQ(samples.summary.n, 6u);
  EXPECT_NEAR(samples.summary.mean.value_or(0), 50.6667, 1e-3);
  EXPECT_EQ(r.kernels.at("v10").boots, 1);
  EXPECT_EQ(r.kernels.at("base").role, "base");
  ASSERT_EQ(r.comparison.size(), 1u);
  EXPECT_EQ(r.comparison[0].metric, "memmap_init_vns");
  EXPECT_EQ(r.comparison[0].verdict, "faster");
  EXPECT_LT(r.comparison[0].relative_change.value_or(0), -0.4);
}

}  // namespace
}  // namespace kseries::session
