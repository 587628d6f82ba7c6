// The parsers and the triage on real serial logs recorded from real boots
// (testdata/README.md says how each was produced and what it shows).
#include <gtest/gtest.h>

#include <map>

#include "cases/memmap_timing.h"
#include "guest/protocol.h"
#include "guest/triage.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::guest {
namespace {

std::string fixture(const std::string& name) {
  return read_file(testing::source_dir() / "framework" / "guest" / "testdata" / name);
}

std::vector<FindingKind> kinds(const std::vector<Finding>& findings) {
  std::vector<FindingKind> out;
  for (const auto& finding : findings) {
    out.push_back(finding.kind);
  }
  return out;
}

TEST(RecordedLogsTest, CleanBootsHaveNoFindings) {
  for (const char* name : {"normal-console.log", "default.console.log", "tracepoint.console.log",
                           "failed-bind.console.log", "unknown-case.console.log"}) {
    EXPECT_TRUE(triage_console(fixture(name)).empty()) << name;
  }
}

TEST(RecordedLogsTest, PanicsAreFoundAtTheirLines) {
  auto findings =
      triage_boot(fixture("panic-no-init.console.log"), BootEnd::k_qemu_failed, "exit 0");
  ASSERT_EQ(kinds(findings), std::vector<FindingKind>{FindingKind::k_panic});
  EXPECT_EQ(findings[0].line, 265);
  EXPECT_EQ(findings[0].title.substr(0, 55),
            "Kernel panic - not syncing: No working init found.  Try");
  findings = triage_console(fixture("panic-no-root.console.log"));
  ASSERT_EQ(kinds(findings), std::vector<FindingKind>{FindingKind::k_panic});
  EXPECT_EQ(findings[0].line, 237);
  findings = triage_console(fixture("panic-cmdline.console.log"));
  ASSERT_EQ(kinds(findings), std::vector<FindingKind>{FindingKind::k_panic});
  EXPECT_EQ(findings[0].line, 286);
  EXPECT_NE(findings[0].title.find("Attempted to kill init!"), std::string::npos);
  EXPECT_NE(findings[0].excerpt.find("do_exit"), std::string::npos);
}

TEST(RecordedLogsTest, HungGuestIsATimeoutOnly) {
  const auto findings =
      triage_boot(fixture("hung.console.log"), BootEnd::k_timed_out, "timed out after 60 s");
  EXPECT_EQ(kinds(findings), std::vector<FindingKind>{FindingKind::k_boot_timeout});
}

TEST(RecordedLogsTest, RcuStallsWithTheirLines) {
  const auto findings = triage_console(fixture("rcu-stall.console.log"));
  std::vector<int> lines;
  for (const auto& finding : findings) {
    EXPECT_EQ(finding.kind, FindingKind::k_rcu_stall);
    lines.push_back(finding.line);
  }
  EXPECT_EQ(lines, (std::vector<int>{242, 280, 321, 324, 363}));
  EXPECT_NE(findings[0].excerpt.find("memmap_init_zone_device"), std::string::npos);
}

TEST(RecordedLogsTest, ProtocolOfANormalRun) {
  const auto events = parse_protocol(fixture("normal-protocol.log"));
  std::map<std::string, int> verbs;
  for (const auto& event : events) {
    ++verbs[event.verb];
  }
  EXPECT_EQ(verbs["measure"], 49);
  EXPECT_EQ(verbs["result"], 5);
  EXPECT_EQ(verbs["poweroff"], 1);
  cases::TimingData data;
  cases::add_boot(data, measurements(events));
  // 4 setups x 3 metrics + the boot probe.
  const auto& fsdax = data.at({"fsdax-dev", "memmap_init_ms"});
  EXPECT_EQ(fsdax.first.size(), 1u);
  EXPECT_EQ(fsdax.rebinds.size(), 3u);
  EXPECT_EQ(fsdax.unit, "ms");
  EXPECT_EQ(fsdax.pages, 515584);
  EXPECT_EQ(data.at({"boot-probe", "memmap_init_ms"}).probe.size(), 1u);
  EXPECT_EQ(data.at({"devdax-mem", "bind_ns"}).rebinds.size(), 3u);
  const auto shares = cases::memmap_share_of_bind(data);
  ASSERT_EQ(shares.size(), 4u);
  for (const auto& [setup, share] : shares) {
    EXPECT_GT(share, 0.05) << setup;
    EXPECT_LT(share, 1.0) << setup;
  }
}

TEST(RecordedLogsTest, FailedBindsAndUnknownCaseReportThemselves) {
  int failures = 0;
  for (const auto& event : parse_protocol(fixture("failed-bind.protocol.log"))) {
    if (event.verb == "result" && event.get("status") == "fail") {
      ++failures;
      EXPECT_NE(event.get("reason").find("Invalid argument"), std::string::npos);
    }
    EXPECT_NE(event.verb, "measure");
  }
  EXPECT_EQ(failures, 4);
  const auto events = parse_protocol(fixture("unknown-case.protocol.log"));
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[1].verb, "guest-error");
  EXPECT_EQ(events[1].get("reason"), "no such case: 'nosuch'");
}

}  // namespace
}  // namespace kseries::guest
