#include "qemu/guest_liveness.h"

#include <gtest/gtest.h>

namespace kseries::qemu {
namespace {

using namespace std::chrono_literals;

// The console of known-bad/private-template-cache's hmm-tests boot
// (2026-12-06, run 20261206-132247-gate): the oops, then the second one.
constexpr const char* k_dead =
    "[    1.398780] Oops: Oops: 0000 [#1] SMP\n"
    "[    1.400593] Fixing recursive fault but reboot is needed!\n";

TEST(DeadGuestWatch, EndsABootOnlyAfterTheDeadLineAndSilence) {
  DeadGuestWatch watch("/nonexistent/console", "/nonexistent/protocol", 120s);
  const auto t0 = DeadGuestWatch::Clock::time_point{} + 1000s;
  EXPECT_FALSE(watch.observe("[ 1.0] an Oops alone\n", 100, t0));
  EXPECT_FALSE(watch.observe("[ 1.0] an Oops alone\n", 100, t0 + 3600s));  // never without the line
  EXPECT_FALSE(watch.observe(k_dead, 100, t0 + 3601s));
  EXPECT_FALSE(watch.observe("", 100, t0 + 3601s + 119s));
  EXPECT_TRUE(watch.observe("", 100, t0 + 3601s + 120s));
  EXPECT_NE(watch.why().find("Fixing recursive fault"), std::string::npos) << watch.why();
}

TEST(DeadGuestWatch, AGuestThatStillReportsIsLeftToGoOn) {
  DeadGuestWatch watch("/nonexistent/console", "/nonexistent/protocol", 120s);
  const auto t0 = DeadGuestWatch::Clock::time_point{} + 1000s;
  EXPECT_FALSE(watch.observe(k_dead, 100, t0));
  EXPECT_FALSE(watch.observe("", 180, t0 + 100s));  // the protocol grew: its tests go on
  EXPECT_FALSE(watch.observe("", 180, t0 + 200s));
  EXPECT_TRUE(watch.observe("", 180, t0 + 220s));
  EXPECT_TRUE(watch.why().size() > 0);
}

}  // namespace
}  // namespace kseries::qemu
