#include <gtest/gtest.h>

#include "session/session_runner.h"

namespace kseries::session {
namespace {

using std::chrono::seconds;

SessionRequest request_for(const std::string& pmem_size, int cpus, seconds boot_timeout) {
  SessionRequest request;
  request.target.name = "slow";
  request.target.pmem_size = pmem_size;
  request.target.cpus = cpus;
  request.target.boot_timeout = boot_timeout;
  request.test_case.timeout = seconds(900);
  return request;
}

TEST(BootSettings, APlainTargetKeepsTheRequestsAndTheCases) {
  const BootSettings s = boot_settings(request_for("", 0, seconds(0)));
  EXPECT_EQ(s.pmem_size, "2G");
  EXPECT_EQ(s.cpus, 0);
  EXPECT_EQ(s.timeout, seconds(900));
}

TEST(BootSettings, TheTargetsKeysApplyWhereTheCommandLineIsSilent) {
  SessionRequest request = request_for("256M", 1, seconds(3600));
  BootSettings s = boot_settings(request);
  EXPECT_EQ(s.pmem_size, "256M");
  EXPECT_EQ(s.cpus, 1);
  EXPECT_EQ(s.timeout, seconds(3600));
  // --size and --timeout win.
  request.pmem_size = "512M";
  request.pmem_size_given = true;
  request.timeout = seconds(120);
  s = boot_settings(request);
  EXPECT_EQ(s.pmem_size, "512M");
  EXPECT_EQ(s.timeout, seconds(120));
}

TEST(BootSettings, ATargetsDeadlineNeverShortensACases) {
  SessionRequest request = request_for("", 0, seconds(600));
  request.test_case.timeout = seconds(2400);
  EXPECT_EQ(boot_settings(request).timeout, seconds(2400));
}

TEST(BootSettings, ACasesMemoryWinsOverTheTargets) {
  SessionRequest request = request_for("256M", 1, seconds(0));
  EXPECT_EQ(boot_settings(request).memory, "");  // the VM's default
  request.target.memory = "3584M";
  EXPECT_EQ(boot_settings(request).memory, "3584M");
  request.test_case.memory = "16G";  // hugetlb-timing's: what the case needs
  EXPECT_EQ(boot_settings(request).memory, "16G");
}

}  // namespace
}  // namespace kseries::session
