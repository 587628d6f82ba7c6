#include "kernel/build_log.h"

#include <gtest/gtest.h>

namespace kseries::kernel {
namespace {

// Recorded from an out-of-tree gcc 12 build of 6.12 (paths shortened).
const char* k_log =
    "  CC      mm/mm_init.o\n"
    "/root/.cache/kseries/targets/pmem/src/mm/mm_init.c: In function 'memmap_init_compound':\n"
    "/root/.cache/kseries/targets/pmem/src/mm/mm_init.c:1065:22: error: 'template' undeclared "
    "(first use in this function)\n"
    "/root/.cache/kseries/targets/pmem/src/mm/mm_init.c:1070:13: warning: unused variable 'x' "
    "[-Wunused-variable]\n"
    "make[4]: *** [/root/.cache/kseries/targets/pmem/src/scripts/Makefile.build:229: "
    "mm/mm_init.o] Error 1\n"
    "  AS      arch/x86/entry/entry_64.o\n"
    "  CC [M]  drivers/dax/pmem.o\n"
    "ld: mm/memremap.o: in function `memremap_pages':\n"
    "memremap.c:(.text+0x3f1): undefined reference to `zone_device_page_init'\n"
    "make[1]: *** [/src/Makefile:224: __sub-make] Error 2\n";

TEST(BuildLogTest, ExtractsErrorsWarningsAndCompiledFiles) {
  const auto log = parse_build_log(k_log, {"/root/.cache/kseries/targets/pmem/src/"});
  ASSERT_EQ(log.errors.size(), 2u);
  EXPECT_EQ(log.errors[0].file, "mm/mm_init.c");
  EXPECT_EQ(log.errors[0].line, 1065);
  EXPECT_EQ(log.errors[0].column, 22);
  EXPECT_EQ(log.errors[0].message, "'template' undeclared (first use in this function)");
  EXPECT_EQ(log.errors[1].file, "mm/memremap.c");
  EXPECT_EQ(log.errors[1].message, "undefined reference to `zone_device_page_init'");
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0].key(), "mm/mm_init.c: unused variable 'x' [-Wunused-variable]");
  EXPECT_EQ(log.make_failures.size(), 2u);
  EXPECT_EQ(log.compiled, (std::vector<std::string>{"mm/mm_init.c", "arch/x86/entry/entry_64.S",
                                                    "drivers/dax/pmem.c"}));
  EXPECT_FALSE(log.disk_full);
}

TEST(BuildLogTest, RecognisesDiskFull) {
  const auto log = parse_build_log("/usr/bin/ld: final link failed: No space left on device\n", {});
  EXPECT_TRUE(log.disk_full);
}

TEST(BuildLogTest, RelativeSourcePrefix) {
  const auto log = parse_build_log("../src/include/linux/mm.h:2540:5: warning: x\n", {"../src/"});
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0].file, "include/linux/mm.h");
}

// The readers replaced std::regex, which recursed per character and died with
// SIGSEGV on a 1 MB line (shown on the old code: exit 139); a line number
// past INT_MAX made std::stoi throw.
TEST(BuildLogTest, AMegabyteLineIsReadNotACrash) {
  const std::string long_text(1 << 20, 'x');
  const std::string log = "a.c:1:2: warning: " + long_text + "\n" + "make[1]: *** " + long_text +
                          "\n" + "ld: " + long_text + ".o: in function f\n" + "  CC      " +
                          long_text + ".o\n";
  const auto parsed = parse_build_log(log, {});
  ASSERT_EQ(parsed.warnings.size(), 1u);
  EXPECT_EQ(parsed.warnings[0].message.size(), long_text.size());
  EXPECT_EQ(parsed.make_failures.size(), 1u);
  EXPECT_EQ(parsed.compiled, std::vector<std::string>{long_text + ".c"});
}

TEST(BuildLogTest, ALineNumberPastIntIsUnknown) {
  const auto log = parse_build_log("f.c:99999999999999999999:3: warning: big\n", {});
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0].line, 0);
  EXPECT_EQ(log.warnings[0].column, 3);
}

// What the regular expressions accepted, kept: the shortest file before
// ":line:", an optional column, the linker named however it is installed,
// " [M]" only as a module marker.
TEST(BuildLogTest, SameLinesAsTheRegularExpressions) {
  const auto log = parse_build_log(
      "C:/x.c:12:3: warning: w\n"
      "f.c:1:2: note: not a diagnostic\n"
      "f.c:7: fatal error: e\n"
      "x86_64-linux-gnu-ld.bfd: mm/a.o: in function `f':\n"
      "a.c:(.text+0x1): undefined reference to `g'\n"
      "make: *** [all] Error 2\n"
      "maker: *** no\n",
      {});
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0].file, "C:/x.c");
  EXPECT_EQ(log.warnings[0].line, 12);
  ASSERT_EQ(log.errors.size(), 2u);
  EXPECT_EQ(log.errors[0].file, "f.c");
  EXPECT_EQ(log.errors[0].column, 0);
  EXPECT_EQ(log.errors[1].file, "mm/a.c");
  EXPECT_EQ(log.make_failures.size(), 1u);
  EXPECT_EQ(compiled_source("  CC [M].o"), "[M].c");
  EXPECT_EQ(compiled_source("  CC [M]  a b.o"), "");
  EXPECT_EQ(compiled_source("  LD      vmlinux.o"), "");
}

}  // namespace
}  // namespace kseries::kernel
