#include "git/store.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

using testing::git;

class StoreTest : public ::testing::Test {
 protected:
  // A commit in the store at `path` (empty tree, message `name`).
  git_oid commit(const std::string& name) {
    const std::string dir = (m_tmp / "store.git").string();
    const std::string tree = git(m_tmp.path(), {"--git-dir", dir, "mktree"});
    return from_hex(git(m_tmp.path(), {"--git-dir", dir, "commit-tree", tree, "-m", name}));
  }

  // The branch's tip as hex ("" when absent).
  static std::string tip(const Store& store, const std::string& branch) {
    const auto oid = store.branch_tip(branch);
    return oid ? to_hex(*oid) : "";
  }

  Session m_session;
  testing::TempDir m_tmp;
};

TEST_F(StoreTest, ABranchCreatedByAnotherProcessMeanwhileIsNotOverwritten) {
  Store mine(m_tmp / "store.git");
  Store theirs(m_tmp / "store.git");  // another kseries run on the same work directory
  const git_oid ours = commit("ours");
  const git_oid their = commit("theirs");
  ASSERT_FALSE(mine.branch_tip("series/x"));                   // seen absent...
  theirs.set_branch("series/x", their, std::nullopt, "test");  // ...created meanwhile
  try {
    mine.set_branch("series/x", ours, std::nullopt, "test");
    FAIL() << "overwrote the other run's branch";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("branch series/x was created by another process "
                                         "meanwhile (now at " +
                                         to_hex(their)),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(tip(mine, "series/x"), to_hex(their));
}

TEST_F(StoreTest, ABranchMovedMeanwhileIsNotMovedAgain) {
  Store mine(m_tmp / "store.git");
  Store theirs(m_tmp / "store.git");
  const git_oid first = commit("first");
  const git_oid second = commit("second");
  const git_oid third = commit("third");
  mine.set_branch("b", first, std::nullopt, "test");
  const auto seen = mine.branch_tip("b");
  theirs.set_branch("b", second, seen, "test");
  EXPECT_THROW(mine.set_branch("b", third, seen, "test"), Error);
  EXPECT_EQ(tip(mine, "b"), to_hex(second));
  // Moving from where it really is works; so does arriving at the same result.
  mine.set_branch("b", third, second, "test");
  theirs.set_branch("b", third, std::nullopt, "test");
  EXPECT_EQ(tip(mine, "b"), to_hex(third));
}

TEST_F(StoreTest, AStoreAnotherProcessCreatedIsOpenedAndNoScratchIsLeft) {
  Store first(m_tmp / "store.git");
  Store second(m_tmp / "store.git");
  EXPECT_EQ(git(m_tmp.path(),
                {"--git-dir", (m_tmp / "store.git").string(), "rev-parse", "--is-bare-repository"}),
            "true");
  for (const auto& entry : std::filesystem::directory_iterator(m_tmp.path())) {
    EXPECT_EQ(entry.path().filename(), "store.git");
  }
}

TEST_F(StoreTest, ReadsThroughTheAlternatesOfABorrowedRepository) {
  // A user's clone made with --shared keeps its objects in another
  // repository; its alternates line is made relative, as git allows.
  const auto origin = m_tmp / "origin";
  std::filesystem::create_directories(origin);
  git(origin, {"init", "-q", "-b", "main"});
  testing::put_file(origin / "f", "content\n");
  git(origin, {"add", "f"});
  git(origin, {"commit", "-q", "-m", "base"});
  git(m_tmp.path(), {"clone", "-q", "--shared", origin.string(), (m_tmp / "clone").string()});
  testing::put_file(m_tmp / "clone" / ".git" / "objects" / "info" / "alternates",
                    "../../../origin/.git/objects\n");
  for (int run = 0; run < 2; ++run) {  // borrowing, then reopening
    Store store(m_tmp / "store.git");
    const git_oid base = store.borrow_commit(m_tmp / "clone", "HEAD");
    EXPECT_TRUE(store.has_object(base));
    EXPECT_NE(store.commit_tree(base), nullptr);
  }
}

TEST_F(StoreTest, AnAlternateAnotherProcessAddedMeanwhileIsReadToo) {
  // Two runs open the store before either borrowed the user's tree; the
  // second borrows after the first has written the alternates line, and
  // must still read the user's objects (seen racing in apply_concurrent.sh).
  const auto user = m_tmp / "user";
  std::filesystem::create_directories(user);
  git(user, {"init", "-q", "-b", "main"});
  testing::put_file(user / "f", "content\n");
  git(user, {"add", "f"});
  git(user, {"commit", "-q", "-m", "base"});
  Store first(m_tmp / "store.git");
  Store second(m_tmp / "store.git");
  const git_oid by_first = first.borrow_commit(user, "HEAD");
  EXPECT_TRUE(first.has_object(by_first));
  const git_oid by_second = second.borrow_commit(user, "HEAD");
  EXPECT_TRUE(second.has_object(by_second));
  EXPECT_NE(second.commit_tree(by_second), nullptr);
}

}  // namespace
}  // namespace kseries::git
