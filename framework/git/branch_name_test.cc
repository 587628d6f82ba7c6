#include "git/branch_name.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "git/libgit2.h"

namespace kseries::git {
namespace {

std::string error_of(const std::string& name) {
  try {
    branch_name(name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// --branch refs/heads/x made refs/heads/refs/heads/x.
TEST(BranchNameTest, AFullBranchRefIsItsShortName) {
  const Session session;
  EXPECT_EQ(branch_name("refs/heads/x"), "x");
  EXPECT_EQ(branch_name("refs/heads/series/toy/v2"), "series/toy/v2");
  EXPECT_EQ(branch_name("x"), "x");
  EXPECT_EQ(branch_name("series/toy.upto-2"), "series/toy.upto-2");
}

TEST(BranchNameTest, NamesGitReadsAsSomethingElseAreRefused) {
  const Session session;
  EXPECT_NE(error_of("refs/tags/v1").find("git reads as refs/tags/v1 first"), std::string::npos)
      << error_of("refs/tags/v1");
  EXPECT_NE(error_of("refs/heads/refs/heads/x").find("reads as refs/heads/x first"),
            std::string::npos);
  for (const char* name : {"tags/v1", "heads/x", "remotes/origin/x"}) {
    EXPECT_NE(error_of(name).find("first"), std::string::npos) << name;
  }
  for (const char* name : {"FETCH_HEAD", "ORIG_HEAD", "@"}) {
    EXPECT_NE(error_of(name).find("not a branch"), std::string::npos) << name;
  }
  EXPECT_NE(error_of("0123456789abcdef0123456789abcdef01234567").find("object id"),
            std::string::npos);
  for (const char* name : {"", "-x", "HEAD", "a..b", "a b", "a@{1}", "x.lock", "refs/heads/"}) {
    EXPECT_NE(error_of(name).find("is not a valid git branch name"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace kseries::git
