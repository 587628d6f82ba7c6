#include "session/new_path.h"

#include <gtest/gtest.h>

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
