#include "sys/utc_time.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

TEST(UtcTimeTest, FormatsNowInUtc) {
  const std::string iso = utc_time_now("%Y-%m-%dT%H:%M:%SZ");
  ASSERT_EQ(iso.size(), 20u) << iso;
  EXPECT_EQ(iso[4], '-');
  EXPECT_EQ(iso[10], 'T');
  EXPECT_EQ(iso.back(), 'Z');
  EXPECT_GE(iso.substr(0, 4), "2025");
  EXPECT_EQ(utc_time_now("%z"), "+0000");
  EXPECT_EQ(utc_time_now(""), "");
}

}  // namespace
}  // namespace kseries
