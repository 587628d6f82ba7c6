#include "kernel/kernel_clean.h"

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

namespace fs = std::filesystem;

void put_kernel(const fs::path& root, const std::string& key, const std::string& target,
                const std::string& tree) {
  testing::put_file(root / "kernels" / key / "build.json",
                    "{\"target\": \"" + target + "\", \"tree\": \"" + tree + "\"}\n");
  testing::put_file(root / "kernels" / key / "bzImage", "image");
}

// Only the target's kernels of the trees asked about go, with its build
// directory and warning state; its source checkout, its kernels of other
// trees and other targets' kernels of the same tree stay.
TEST(KernelCleanTest, RemovesTheTargetsKernelsOfTheTreesAndItsBuildDirectory) {
  testing::TempDir root;
  put_kernel(root.path(), "k1", "pmem", "aaaa");  // base, default compiler
  put_kernel(root.path(), "k2", "pmem", "aaaa");  // base, another .config
  put_kernel(root.path(), "k3", "pmem", "bbbb");  // another commit
  put_kernel(root.path(), "k4", "kasan", "aaaa");
  testing::put_file(root / "kernels" / "k5" / "bzImage", "no build.json: not a kernel");
  testing::put_file(root / "kernels" / "k6" / "build.json", "{not json");
  testing::put_file(root / "targets" / "pmem" / "build" / "vmlinux", "elf");
  testing::put_file(root / "targets" / "pmem" / "src" / "Makefile", "src");
  testing::put_file(root / "targets" / "pmem" / "warnings.tsv", "a.c\tw\n");
  testing::put_file(root / "targets" / "kasan" / "build" / "vmlinux", "elf");

  const auto result =
      clean_kernel_cache(root.path(), "pmem", {"aaaa"}, CleanScope::k_kernels_and_build_dir);

  ASSERT_EQ(result.kernels.size(), 2u);
  EXPECT_EQ(result.kernels[0].filename(), "k1");
  EXPECT_EQ(result.kernels[1].filename(), "k2");
  EXPECT_TRUE(result.build_dir);
  EXPECT_FALSE(fs::exists(root / "kernels" / "k1"));
  EXPECT_FALSE(fs::exists(root / "kernels" / "k2"));
  EXPECT_FALSE(fs::exists(root / "kernels" / "k1.removed"));
  EXPECT_TRUE(fs::exists(root / "kernels" / "k3" / "build.json"));
  EXPECT_TRUE(fs::exists(root / "kernels" / "k4" / "build.json"));
  EXPECT_TRUE(fs::exists(root / "kernels" / "k5" / "bzImage"));
  EXPECT_TRUE(fs::exists(root / "kernels" / "k6" / "build.json"));
  EXPECT_FALSE(fs::exists(root / "targets" / "pmem" / "build"));
  EXPECT_FALSE(fs::exists(root / "targets" / "pmem" / "warnings.tsv"));
  EXPECT_TRUE(fs::exists(root / "targets" / "pmem" / "src" / "Makefile"));
  EXPECT_TRUE(fs::exists(root / "targets" / "kasan" / "build" / "vmlinux"));
}

// k_kernels: the build directory stays, so the next make is incremental.
TEST(KernelCleanTest, KernelsOnlyKeepsTheBuildDirectory) {
  testing::TempDir root;
  put_kernel(root.path(), "k1", "pmem", "aaaa");
  testing::put_file(root / "targets" / "pmem" / "build" / "vmlinux", "elf");
  testing::put_file(root / "targets" / "pmem" / "warnings.tsv", "a.c\tw\n");
  const auto result = clean_kernel_cache(root.path(), "pmem", {"aaaa"}, CleanScope::k_kernels);
  EXPECT_EQ(result.kernels.size(), 1u);
  EXPECT_FALSE(result.build_dir);
  EXPECT_FALSE(fs::exists(root / "kernels" / "k1"));
  EXPECT_TRUE(fs::exists(root / "targets" / "pmem" / "build" / "vmlinux"));
  EXPECT_TRUE(fs::exists(root / "targets" / "pmem" / "warnings.tsv"));
}

// A work directory that never built the target: nothing to remove, no error.
TEST(KernelCleanTest, AnEmptyWorkDirectoryIsClean) {
  testing::TempDir root;
  const auto result =
      clean_kernel_cache(root.path(), "pmem", {"aaaa"}, CleanScope::k_kernels_and_build_dir);
  EXPECT_TRUE(result.kernels.empty());
  EXPECT_FALSE(result.build_dir);
}

}  // namespace
}  // namespace kseries::kernel
