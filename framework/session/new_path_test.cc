#include "session/new_path.h"

#include <gtest/gtest.h>

#include "git/libgit2.h"
#include "testing/temp_dir.h"

namespace kseries::session {
namespace {

// A file in kernel style: the window's root, a static helper it calls, and
// a function it does not reach.
const char* const k_file =
    "#include <linux/mm.h>\n"                                  // 1
    "\n"                                                       // 2
    "static void init_one(struct page *page)\n"                // 3
    "{\n"                                                      // 4
    "\tpage->flags = 0;\n"                                     // 5
    "}\n"                                                      // 6
    "\n"                                                       // 7
    "void __init hugetlb_thing(void)\n"                        // 8
    "{\n"                                                      // 9
    "\tpr_info(\"x\");\n"                                      // 10
    "}\n"                                                      // 11
    "\n"                                                       // 12
    "void __ref memmap_init_zone_device(struct zone *zone,\n"  // 13
    "\t\t\t\t   unsigned long start_pfn)\n"                    // 14
    "{\n"                                                      // 15
    "\tinit_one(pfn_to_page(start_pfn));\n"                    // 16
    "}\n";                                                     // 17

TEST(NewPathTest, ALineOfTheRootOrOfAFunctionItCallsIsAChangeOfThePath) {
  EXPECT_EQ(changed_functions(k_file, "memmap_init_zone_device", {16}),
            std::vector<std::string>{"memmap_init_zone_device"});
  EXPECT_EQ(changed_functions(k_file, "memmap_init_zone_device", {5}),
            std::vector<std::string>{"init_one"});
  // The signature's lines belong to the function.
  EXPECT_EQ(changed_functions(k_file, "memmap_init_zone_device", {14}),
            std::vector<std::string>{"memmap_init_zone_device"});
}

TEST(NewPathTest, ALineElsewhereInTheFileIsNot) {
  EXPECT_TRUE(changed_functions(k_file, "memmap_init_zone_device", {10}).empty());
  EXPECT_TRUE(changed_functions(k_file, "memmap_init_zone_device", {1, 2}).empty());
  EXPECT_TRUE(changed_functions(k_file, "no_such_function", {16}).empty());
}

// From a repository: a commit that changes only a comment inside the root
// claims nothing (it changes no work); one that changes a statement does.
TEST(NewPathTest, ACommentChangeIsNoChangeOfThePath) {
  git::Session session;
  testing::TempDir tmp;
  const auto src = tmp / "linux";
  testing::put_file(src / "mm/mm_init.c", k_file);
  testing::git(src, {"init", "-q"});
  testing::git(src, {"add", "-A"});
  testing::git(src, {"commit", "-q", "-m", "base"});
  std::string text = k_file;
  text.replace(text.find("\tinit_one(pfn_to_page(start_pfn));"), 0, "\t/* one page */\n");
  testing::put_file(src / "mm/mm_init.c", text);
  testing::git(src, {"commit", "-q", "-am", "comment"});
  text.replace(text.find("page->flags = 0;"), 16, "page->flags = 1;");
  testing::put_file(src / "mm/mm_init.c", text);
  testing::git(src, {"commit", "-q", "-am", "code"});
  git::Store store(tmp / "store.git");
  const git_oid base = store.borrow_commit(src, "HEAD~2");
  const git_oid comment = store.borrow_commit(src, "HEAD~1");
  const git_oid code = store.borrow_commit(src, "HEAD");
  const std::vector<std::string> path{"mm/mm_init.c:memmap_init_zone_device"};
  EXPECT_TRUE(changed_path(store, base, comment, path).empty());
  EXPECT_EQ(changed_path(store, base, code, path),
            std::vector<std::string>{"mm/mm_init.c:memmap_init_zone_device (init_one)"});
  EXPECT_EQ(changed_path(store, base, code, {"mm/mm_init.c"}),
            std::vector<std::string>{"mm/mm_init.c"});
}

TEST(NewPathTest, ASanitizerTargetKeepsTheSeriesOnTheSlowPathByContract) {
  kernel::Target kasan;
  kasan.features = {"pmem", "sanitizer"};
  const auto path = new_path_for(kasan, {"mm/mm_init.c:memmap_init_zone_device (init_one)"});
  EXPECT_TRUE(path.slow_path_by_contract);
  EXPECT_FALSE(path.expected());
  kernel::Target pmem;
  pmem.features = {"pmem"};
  EXPECT_TRUE(new_path_for(pmem, {"mm/mm_init.c"}).expected());
  EXPECT_FALSE(new_path_for(pmem, {}).expected());
}

}  // namespace
}  // namespace kseries::session
