#include "git/checkout.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <thread>

#include "core/error.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

using testing::git;
using testing::put_file;

struct Fixture {
  testing::TempDir tmp;
  Session session;
  std::filesystem::path repo = tmp / "repo";
  std::string first, second;
  Fixture() {
    std::filesystem::create_directories(repo);
    git(repo, {"init", "-q", "-b", "main"});
    put_file(repo / "keep.c", "unchanged\n");
    put_file(repo / "change.c", "one\n");
    put_file(repo / "sub" / "gone.c", "bye\n");
    put_file(repo / "tool.sh", "#!/bin/sh\n");
    ::chmod((repo / "tool.sh").c_str(), 0755);
    git(repo, {"add", "-A"});
    git(repo, {"commit", "-q", "-m", "first"});
    first = git(repo, {"rev-parse", "HEAD"});
    put_file(repo / "change.c", "two\n");
    git(repo, {"rm", "-q", "sub/gone.c"});
    put_file(repo / "new" / "born.c", "hi\n");
    std::filesystem::create_symlink("keep.c", repo / "link");
    git(repo, {"add", "-A"});
    git(repo, {"commit", "-q", "-m", "second"});
    second = git(repo, {"rev-parse", "HEAD"});
  }
};

std::int64_t mtime_ns(const std::filesystem::path& path) {
  struct stat st;
  ::lstat(path.c_str(), &st);
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

TEST(CheckoutTest, MovesTouchOnlyChangedFiles) {
  Fixture f;
  Store store(f.tmp / "store.git");
  const git_oid first = store.borrow_commit(f.repo, f.first);
  const git_oid second = store.borrow_commit(f.repo, f.second);
  SourceTree tree(f.tmp / "src", f.tmp / "src.commit");
  EXPECT_FALSE(tree.current());
  tree.move_to(store, first);
  EXPECT_EQ(read_file(f.tmp / "src" / "change.c"), "one\n");
  EXPECT_TRUE(std::filesystem::exists(f.tmp / "src" / "sub" / "gone.c"));
  struct stat st;
  ::stat((f.tmp / "src" / "tool.sh").c_str(), &st);
  EXPECT_TRUE(st.st_mode & S_IXUSR);
  const auto keep_before = mtime_ns(f.tmp / "src" / "keep.c");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));

  EXPECT_EQ(tree.move_to(store, second), 4u);  // change, gone, born, link
  EXPECT_EQ(read_file(f.tmp / "src" / "change.c"), "two\n");
  EXPECT_FALSE(std::filesystem::exists(f.tmp / "src" / "sub"));
  EXPECT_EQ(read_file(f.tmp / "src" / "new" / "born.c"), "hi\n");
  EXPECT_TRUE(std::filesystem::is_symlink(f.tmp / "src" / "link"));
  EXPECT_EQ(mtime_ns(f.tmp / "src" / "keep.c"), keep_before);
  ASSERT_TRUE(tree.current());
  EXPECT_EQ(to_hex(*tree.current()), f.second);

  EXPECT_EQ(tree.move_to(store, second), 0u);
  tree.move_to(store, first);
  EXPECT_EQ(read_file(f.tmp / "src" / "change.c"), "one\n");
  EXPECT_FALSE(std::filesystem::exists(f.tmp / "src" / "link"));
}

TEST(CheckoutTest, FinishesAnInterruptedMove) {
  Fixture f;
  Store store(f.tmp / "store.git");
  const git_oid first = store.borrow_commit(f.repo, f.first);
  const git_oid second = store.borrow_commit(f.repo, f.second);
  SourceTree tree(f.tmp / "src", f.tmp / "src.commit");
  tree.move_to(store, first);
  // As if killed half-way through a move to `second`.
  write_file(f.tmp / "src.commit", "updating " + f.first + " " + f.second + "\n");
  EXPECT_FALSE(tree.current());
  tree.move_to(store, second);
  EXPECT_EQ(read_file(f.tmp / "src" / "change.c"), "two\n");
  EXPECT_EQ(to_hex(*tree.current()), f.second);
}

// A commit the file system cannot hold (a 300-byte name): the move to it
// fails; the next move, to any commit, must not replay it forever.
TEST(CheckoutTest, AMoveThatCannotFinishDoesNotBlockTheNext) {
  Fixture f;
  const std::string blob = git(f.repo, {"rev-parse", "HEAD:keep.c"});
  git(f.repo, {"update-index", "--add", "--cacheinfo",
               "100644," + blob + "," + std::string(300, 'n') + ".c"});
  const std::string tree_id = git(f.repo, {"write-tree"});
  const std::string bad = git(f.repo, {"commit-tree", tree_id, "-p", f.second, "-m", "long"});
  git(f.repo, {"reset", "-q"});
  Store store(f.tmp / "store.git");
  const git_oid first = store.borrow_commit(f.repo, f.first);
  const git_oid second = store.borrow_commit(f.repo, f.second);
  const git_oid long_name = store.borrow_commit(f.repo, bad);
  SourceTree tree(f.tmp / "src", f.tmp / "src.commit");
  tree.move_to(store, second);
  EXPECT_THROW(tree.move_to(store, long_name), Error);
  tree.move_to(store, first);
  ASSERT_TRUE(tree.current());
  EXPECT_EQ(to_hex(*tree.current()), f.first);
  EXPECT_EQ(read_file(f.tmp / "src" / "change.c"), "one\n");
}

}  // namespace
}  // namespace kseries::git
