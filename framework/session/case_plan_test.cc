#include "session/case_plan.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "kernel/target.h"
#include "testing/temp_dir.h"

namespace kseries::session {
namespace {

std::string usage_error_of(const kernel::Target& target, const cases::CaseDef& test_case,
                           const CaseOptions& options) {
  try {
    plan_case(target, test_case, options);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::k_usage_or_infra);
    return e.what();
  }
  return "";
}

// A case's rebinds are the case's to declare (`rebinds: N` in its
// case.conf), not keyed to its name: a case that takes them gets its own
// default or the one given; a case that does not is given none, and
// giving it one is refused rather than dropped.
TEST(CasePlanTest, RebindsAreDeclaredByTheCase) {
  const auto target = kernel::load_target(testing::source_dir() / "kernel-configs", "pmem");
  const auto timing = cases::load_case(testing::source_dir() / "testcases", "memmap-timing");
  ASSERT_EQ(timing.rebinds, 30);
  EXPECT_NE(plan_case(target, timing, {}).guest_cmdline.find("kseries.args=rebinds=30,setups="),
            std::string::npos)
      << plan_case(target, timing, {}).guest_cmdline;
  CaseOptions five;
  five.rebinds = 5;
  EXPECT_NE(plan_case(target, timing, five).guest_cmdline.find("rebinds=5,"), std::string::npos);

  testing::TempDir tmp;
  testing::put_file(tmp / "memmap-timing" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "memmap-timing" / "case.conf", "needs: pmem\n");
  const auto undeclared = cases::load_case(tmp.path(), "memmap-timing");
  EXPECT_EQ(plan_case(target, undeclared, {}).guest_cmdline.find("rebinds="), std::string::npos);
  EXPECT_NE(usage_error_of(target, undeclared, five)
                .find("case memmap-timing takes no rebinds (its " +
                      (tmp / "memmap-timing" / "case.conf").string() + " has no 'rebinds:')"),
            std::string::npos);

  testing::put_file(tmp / "other" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "other" / "case.conf", "setups: a b\nrebinds: 2\n");
  const auto other = cases::load_case(tmp.path(), "other");
  EXPECT_NE(plan_case(target, other, {}).guest_cmdline.find("kseries.args=rebinds=2,setups=a:b"),
            std::string::npos)
      << plan_case(target, other, {}).guest_cmdline;
}

}  // namespace
}  // namespace kseries::session
