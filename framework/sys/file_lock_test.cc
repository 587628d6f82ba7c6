#include "sys/file_lock.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace kseries {
namespace {

TEST(FileLock, ASecondHolderIsRefusedAndToldWhoHoldsIt) {
  testing::TempDir dir;
  std::string holder;
  auto first = FileLock::try_acquire(dir.path() / "lock", "kseries watch A", holder);
  ASSERT_TRUE(first);
  // flock is per open file: a second open in this process conflicts as a
  // second process would.
  EXPECT_FALSE(FileLock::try_acquire(dir.path() / "lock", "kseries watch B", holder));
  EXPECT_EQ(holder, "pid " + std::to_string(::getpid()) + ": kseries watch A");
  first.reset();
  EXPECT_TRUE(FileLock::try_acquire(dir.path() / "lock", "kseries watch B", holder));
}

TEST(FileLock, ADeadHoldersLockIsFree) {
  testing::TempDir dir;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::string holder;
    auto lock = FileLock::try_acquire(dir.path() / "lock", "child", holder);
    ::_exit(lock ? 0 : 1);  // dies holding it
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_EQ(WEXITSTATUS(status), 0);
  std::string holder;
  EXPECT_TRUE(FileLock::try_acquire(dir.path() / "lock", "parent", holder));
}

}  // namespace
}  // namespace kseries
