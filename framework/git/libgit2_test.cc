#include "git/libgit2.h"

#include <gtest/gtest.h>

namespace kseries::git {
namespace {

FailureSource source_of(int rc, int klass) {
  git_error_set_str(klass, "test");
  return failure_source(rc);
}

TEST(FailureSourceTest, TheDiskTheStoreAndMemoryAreInfrastructure) {
  Session session;
  for (int klass :
       {GIT_ERROR_OS, GIT_ERROR_ODB, GIT_ERROR_FILESYSTEM, GIT_ERROR_NOMEMORY, GIT_ERROR_ZLIB}) {
    EXPECT_EQ(source_of(GIT_ERROR, klass), FailureSource::k_infrastructure) << klass;
  }
}

TEST(FailureSourceTest, AHunkThatDoesNotFitIsTheInputs) {
  Session session;
  EXPECT_EQ(source_of(GIT_EAPPLYFAIL, GIT_ERROR_PATCH), FailureSource::k_input);
  EXPECT_EQ(source_of(GIT_ERROR, GIT_ERROR_PATCH), FailureSource::k_input);
  EXPECT_EQ(source_of(GIT_EAPPLYFAIL, GIT_ERROR_OS), FailureSource::k_input);
}

}  // namespace
}  // namespace kseries::git
