#include "git/tree_patch.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "git/libgit2.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

using testing::git;
using testing::put_file;

const char* const k_patch =
    "diff --git a/include/layout.h b/include/layout.h\n"
    "--- a/include/layout.h\n"
    "+++ b/include/layout.h\n"
    "@@ -1,3 +1,3 @@\n"
    " #define A 1\n"
    "-#if WIDTH <= 64\n"
    "+#if 0 && WIDTH <= 64\n"
    " #define B 2\n";

struct Fixture {
  testing::TempDir tmp;
  Session session;
  std::filesystem::path repo = tmp / "repo";
  std::string first;
  Fixture() {
    std::filesystem::create_directories(repo);
    git(repo, {"init", "-q", "-b", "main"});
    put_file(repo / "include" / "layout.h", "#define A 1\n#if WIDTH <= 64\n#define B 2\n");
    put_file(repo / "other.c", "int x;\n");
    git(repo, {"add", "-A"});
    git(repo, {"commit", "-q", "-m", "first"});
    first = git(repo, {"rev-parse", "HEAD"});
  }
};

TEST(TreePatchTest, GivesThePatchedContentOfEachFileItTouches) {
  Fixture f;
  Store store(f.tmp / "store.git");
  const git_oid commit = store.borrow_commit(f.repo, f.first);
  const auto files = patch_tree(store, commit, k_patch, "test");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "include/layout.h");
  ASSERT_TRUE(files[0].content);
  EXPECT_EQ(*files[0].content, "#define A 1\n#if 0 && WIDTH <= 64\n#define B 2\n");
  // The commit itself is unchanged.
  EXPECT_EQ(*file_at(store, commit, "include/layout.h"),
            "#define A 1\n#if WIDTH <= 64\n#define B 2\n");
  EXPECT_FALSE(file_at(store, commit, "no/such.c"));
  EXPECT_FALSE(file_at(store, commit, "include"));  // a directory is no file
}

TEST(TreePatchTest, APatchThatDoesNotApplyOrParseIsAUsageErrorNamingIt) {
  Fixture f;
  Store store(f.tmp / "store.git");
  const git_oid commit = store.borrow_commit(f.repo, f.first);
  std::string stale = k_patch;
  stale.replace(stale.find("-#if WIDTH"), 10, "-#if DEPTH");
  try {
    patch_tree(store, commit, stale, "tree patch x.patch");
    FAIL() << "a stale patch applied";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    EXPECT_NE(std::string(e.what()).find("tree patch x.patch: does not apply"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(patch_tree(store, commit, "not a diff\n", "x"), Error);
}

}  // namespace
}  // namespace kseries::git
