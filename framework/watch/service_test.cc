#include "watch/service.h"

#include <gtest/gtest.h>

namespace kseries::watch {
namespace {

using std::chrono::seconds;

TEST(Service, AFailedPollWaitsLongerEachTimeUpToACap) {
  EXPECT_EQ(poll_backoff(0, seconds(300)), seconds(300));
  EXPECT_EQ(poll_backoff(1, seconds(300)), seconds(15));
  EXPECT_EQ(poll_backoff(2, seconds(300)), seconds(30));
  EXPECT_EQ(poll_backoff(3, seconds(300)), seconds(60));
  EXPECT_EQ(poll_backoff(7, seconds(300)), seconds(600));
  EXPECT_EQ(poll_backoff(1000, seconds(300)), seconds(600));
  // A short interval starts there; a long one is also the cap.
  EXPECT_EQ(poll_backoff(1, seconds(2)), seconds(2));
  EXPECT_EQ(poll_backoff(3, seconds(2)), seconds(8));
  EXPECT_EQ(poll_backoff(20, seconds(3600)), seconds(3600));
}

}  // namespace
}  // namespace kseries::watch
