#include "session/kernel_stage.h"

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace kseries::session {
namespace {

namespace fs = std::filesystem;

// A target that checks sizeof(struct page) reads it from the memmap
// dumper: every session on it builds the dumper, whatever its case loads
// (memmap-timing loads none, and its kernels were refused).
TEST(KernelModuleDirs, TheDumperComesWithATargetThatChecksStructPage) {
  testing::TempDir tmp;
  fs::create_directories(tmp / "memmap-dump");
  cases::CaseDef timing;
  cases::CaseDef dumping;
  dumping.modules = {"memmap-dump"};
  kernel::Target plain;
  kernel::Target eighty;
  eighty.struct_page = 80;
  EXPECT_TRUE(kernel_module_dirs(timing, plain, tmp.path()).empty());
  EXPECT_EQ(kernel_module_dirs(timing, eighty, tmp.path()),
            std::vector<fs::path>{tmp / "memmap-dump"});
  EXPECT_EQ(kernel_module_dirs(dumping, eighty, tmp.path()),
            std::vector<fs::path>{tmp / "memmap-dump"});
  EXPECT_EQ(kernel_module_dirs(dumping, plain, tmp.path()),
            std::vector<fs::path>{tmp / "memmap-dump"});
}

}  // namespace
}  // namespace kseries::session
