#include "kernel/target.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

using testing::put_file;

std::string error_of(const std::filesystem::path& dir, const std::string& name) {
  try {
    load_target(dir, name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TargetTest, LoadsTheBundledTargets) {
  const auto configs = testing::source_dir() / "kernel-configs";
  const auto names = list_targets(configs);
  for (const char* wanted :
       {"pmem", "pmem-notrace", "kasan", "kmsan", "section-in-page-flags", "hugetlb-nohvo"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), wanted), names.end()) << wanted;
  }
  const Target kmsan = load_target(configs, "kmsan");
  EXPECT_EQ(kmsan.compiler, "clang-16");
  EXPECT_EQ(kmsan.compiler_make_args(), std::vector<std::string>{"LLVM=-16"});
  EXPECT_NE(kmsan.limitation("map=dev").find("KMSAN"), std::string::npos);
  EXPECT_EQ(kmsan.limitation("map=mem"), "");
  const Target pmem = load_target(configs, "pmem");
  EXPECT_TRUE(pmem.has_feature("page-ref-trace"));
  const auto requests = target_requests(pmem);
  bool zone_device = false;
  for (const auto& request : requests) {
    zone_device = zone_device || (request.symbol == "ZONE_DEVICE" && request.value == "y");
  }
  EXPECT_TRUE(zone_device);
  // pmem-notrace: the later fragment turns DEBUG_PAGE_REF off.
  for (const auto& request : target_requests(load_target(configs, "pmem-notrace"))) {
    if (request.symbol == "DEBUG_PAGE_REF") {
      EXPECT_EQ(request.value, "n");
    }
  }
}

TEST(TargetTest, UnknownTargetListsTheKnownOnes) {
  testing::TempDir tmp;
  put_file(tmp / "targets" / "a.target", "fragments: x\n");
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  const auto error = error_of(tmp.path(), "nope");
  EXPECT_NE(error.find("unknown target 'nope'"), std::string::npos) << error;
  EXPECT_NE(error.find("known targets: a"), std::string::npos) << error;
}

TEST(TargetTest, MissingFragmentAndBadLinesNameTheFile) {
  testing::TempDir tmp;
  put_file(tmp / "targets" / "a.target", "# t\nfragments: x missing\n");
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  auto error = error_of(tmp.path(), "a");
  EXPECT_NE(error.find("a.target:2: fragment 'missing' not found"), std::string::npos) << error;
  put_file(tmp / "targets" / "b.target", "fragments: x\ncolour: blue\n");
  error = error_of(tmp.path(), "b");
  EXPECT_NE(error.find("b.target:2: unknown key 'colour'"), std::string::npos) << error;
}

// A key given twice was taken silently, the last one winning (compiler:
// gcc, then compiler: clang-16 built with clang); now each key is given
// once, and a list names each item once.
TEST(TargetTest, AKeyOrAListItemGivenTwiceIsRefused) {
  testing::TempDir tmp;
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  put_file(tmp / "fragments" / "y.config", "CONFIG_B=y\n");
  const std::pair<std::string, std::string> bad[] = {
      {"fragments: x\ncompiler: gcc\ncompiler: clang-16\n",
       "t.target:3: 'compiler:' again (first at line 2)"},
      {"fragments: x\nfragments: y\n", "t.target:2: 'fragments:' again (first at line 1)"},
      {"fragments: x\ncpus: 1\n# two\ncpus: 2\n", "t.target:4: 'cpus:' again (first at line 2)"},
      {"fragments: x\nfeatures: pmem\nfeatures: kasan\n", "t.target:3: 'features:' again"},
      {"fragments: x y x\n", "t.target:1: fragment 'x' listed twice"},
      {"fragments: x\nfeatures: pmem kasan pmem\n", "t.target:2: feature 'pmem' listed twice"},
      {"fragments: x\ncannot: map=dev: one\ncannot: map=dev: two\n",
       "t.target:3: 'cannot: map=dev' again"},
  };
  for (const auto& [text, message] : bad) {
    put_file(tmp / "targets" / "t.target", text);
    const auto error = error_of(tmp.path(), "t");
    EXPECT_NE(error.find(message), std::string::npos) << text << error;
  }
  // One line per setup or case it cannot do stays the way to list them.
  put_file(tmp / "targets" / "t.target",
           "fragments: x y\ncannot: map=dev: one\ncannot: pmem: two\n");
  const Target target = load_target(tmp.path(), "t");
  EXPECT_EQ(target.limitation("map=dev"), "one");
  EXPECT_EQ(target.limitation("pmem"), "two");
  EXPECT_EQ(target.fragments.size(), 2u);
}

TEST(TargetTest, StructPageSizeIsParsedAndChecked) {
  testing::TempDir tmp;
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  put_file(tmp / "targets" / "plain.target", "fragments: x\n");
  EXPECT_EQ(load_target(tmp.path(), "plain").struct_page, 0U);  // not checked
  put_file(tmp / "targets" / "big.target", "fragments: x\nstruct-page: 80\n");
  EXPECT_EQ(load_target(tmp.path(), "big").struct_page, 80U);
  for (const char* bad : {"81", "0", "8", "1024", "eighty", "80 bytes", "-80", "99999999999"}) {
    put_file(tmp / "targets" / "bad.target",
             std::string("fragments: x\nstruct-page: ") + bad + "\n");
    const auto error = error_of(tmp.path(), "bad");
    EXPECT_NE(error.find("bad.target:2: struct-page is sizeof(struct page) in bytes"),
              std::string::npos)
        << bad << ": " << error;
  }
  EXPECT_EQ(load_target(testing::source_dir() / "kernel-configs", "kmsan").struct_page, 80U);
  EXPECT_EQ(load_target(testing::source_dir() / "kernel-configs", "pmem").struct_page, 0U);
}

TEST(TargetTest, BootSettingsAreValidated) {
  testing::TempDir tmp;
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  put_file(tmp / "targets" / "slow.target",
           "fragments: x\npmem-size: 256M\nmemory: 3584M\ncpus: 1\nboot-timeout: 3600\n");
  const Target slow = load_target(tmp.path(), "slow");
  EXPECT_EQ(slow.pmem_size, "256M");
  EXPECT_EQ(slow.memory, "3584M");
  EXPECT_EQ(slow.cpus, 1);
  EXPECT_EQ(slow.boot_timeout, std::chrono::seconds(3600));
  put_file(tmp / "targets" / "plain.target", "fragments: x\n");
  const Target plain = load_target(tmp.path(), "plain");
  EXPECT_EQ(plain.pmem_size, "");
  EXPECT_EQ(plain.memory, "");
  EXPECT_EQ(plain.cpus, 0);
  EXPECT_EQ(plain.boot_timeout, std::chrono::seconds(0));
  const std::pair<std::string, std::string> bad[] = {
      {"pmem-size: 100M", "pmem-size is a multiple of 128M up to 64G"},
      {"pmem-size: 128", "pmem-size is a multiple of 128M up to 64G"},
      {"pmem-size: 65G", "pmem-size is a multiple of 128M up to 64G"},
      {"pmem-size: 2T", "pmem-size is a multiple of 128M up to 64G"},
      {"pmem-size: G", "pmem-size is a multiple of 128M up to 64G"},
      {"memory: 256M", "memory is the guest's RAM, a size such as 4608M or 8G"},
      {"memory: 8", "memory is the guest's RAM, a size such as 4608M or 8G"},
      {"memory: 8T", "memory is the guest's RAM, a size such as 4608M or 8G"},
      {"cpus: 0", "cpus is a vCPU count from 1 to 64"},
      {"cpus: two", "cpus is a vCPU count from 1 to 64"},
      {"boot-timeout: 5", "boot-timeout is seconds per boot, from 60 to 86400"},
      {"boot-timeout: 1h", "boot-timeout is seconds per boot, from 60 to 86400"},
  };
  for (const auto& [line, message] : bad) {
    put_file(tmp / "targets" / "bad.target", "fragments: x\n" + line + "\n");
    const auto error = error_of(tmp.path(), "bad");
    EXPECT_NE(error.find("bad.target:2: " + message), std::string::npos) << line << ": " << error;
  }
  for (const char* good : {"128M", "2G", "64G"}) {
    put_file(tmp / "targets" / "ok.target", std::string("fragments: x\npmem-size: ") + good + "\n");
    EXPECT_EQ(load_target(tmp.path(), "ok").pmem_size, good);
  }
}

TEST(TargetTest, ATreePatchIsResolvedOrNamedAsMissing) {
  testing::TempDir tmp;
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  put_file(tmp / "tree-patches" / "p.patch", "diff --git a/a b/a\n");
  put_file(tmp / "targets" / "t.target", "fragments: x\ntree-patch: p\n");
  EXPECT_EQ(load_target(tmp.path(), "t").tree_patches,
            std::vector<std::filesystem::path>{tmp / "tree-patches" / "p.patch"});
  put_file(tmp / "tree-patches" / "q.patch", "diff --git a/b b/b\n");
  put_file(tmp / "targets" / "two.target", "fragments: x\ntree-patch: p q\n");
  EXPECT_EQ(load_target(tmp.path(), "two").tree_patches,
            (std::vector<std::filesystem::path>{tmp / "tree-patches" / "p.patch",
                                                tmp / "tree-patches" / "q.patch"}));
  for (const char* bad : {"nosuch", "../targets/t"}) {
    put_file(tmp / "targets" / "bad.target",
             std::string("fragments: x\ntree-patch: ") + bad + "\n");
    const auto error = error_of(tmp.path(), "bad");
    EXPECT_NE(error.find("bad.target:2: tree patch '" + std::string(bad) + "' not found"),
              std::string::npos)
        << error;
  }
  EXPECT_TRUE(load_target(testing::source_dir() / "kernel-configs", "pmem").tree_patches.empty());
  const Target eighty = load_target(testing::source_dir() / "kernel-configs", "pmem-80");
  ASSERT_EQ(eighty.tree_patches.size(), 1U);
  EXPECT_EQ(eighty.tree_patches[0].filename(), "last-cpupid-out-of-flags.patch");
  EXPECT_EQ(eighty.struct_page, 80U);
  const Target ninety_six = load_target(testing::source_dir() / "kernel-configs", "kmsan-96");
  ASSERT_EQ(ninety_six.tree_patches.size(), 2U);
  EXPECT_EQ(ninety_six.tree_patches[0].filename(), "last-cpupid-out-of-flags.patch");
  EXPECT_EQ(ninety_six.tree_patches[1].filename(), "kmsan-ftrace-regs.patch");
  EXPECT_EQ(ninety_six.struct_page, 96U);
  EXPECT_TRUE(ninety_six.has_feature("kmsan"));
}

TEST(TargetTest, Arm64TargetIsCrossBuilt) {
  const auto configs = testing::source_dir() / "kernel-configs";
  const Target arm64 = load_target(configs, "arm64");
  EXPECT_EQ(arm64.arch, "arm64");
  EXPECT_EQ(arm64.compiler_program(), "aarch64-linux-gnu-gcc");
  EXPECT_EQ(arm64.helper_compiler(), "aarch64-linux-gnu-gcc");
  EXPECT_EQ(arm64.compiler_make_args(),
            (std::vector<std::string>{"ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-"}));
  EXPECT_EQ(arm64.image_path(), "arch/arm64/boot/Image");
  EXPECT_EQ(arm64.busybox, "/usr/local/lib/kseries/arm64/busybox");
  const Target pmem = load_target(configs, "pmem");
  EXPECT_EQ(pmem.arch, "x86_64");
  EXPECT_EQ(pmem.compiler_program(), "gcc");
  EXPECT_TRUE(pmem.compiler_make_args().empty());
  EXPECT_EQ(pmem.image_path(), "arch/x86/boot/bzImage");
  EXPECT_EQ(pmem.busybox, "/bin/busybox");
}

TEST(TargetTest, ArchAndToolchainLinesAreChecked) {
  testing::TempDir tmp;
  put_file(tmp / "fragments" / "x.config", "CONFIG_A=y\n");
  put_file(tmp / "targets" / "riscv.target", "arch: riscv\nfragments: x\n");
  EXPECT_NE(error_of(tmp.path(), "riscv").find("arch must be x86_64 or arm64"), std::string::npos);
  put_file(tmp / "targets" / "bare.target", "arch: arm64\nfragments: x\n");
  EXPECT_NE(error_of(tmp.path(), "bare").find("needs a 'cross-compile:'"), std::string::npos);
  put_file(tmp / "targets" / "prefix.target",
           "arch: arm64\ncross-compile: aarch64-linux-gnu-gcc\nfragments: x\n");
  EXPECT_NE(error_of(tmp.path(), "prefix").find("toolchain prefix ending in '-'"),
            std::string::npos);
}

}  // namespace
}  // namespace kseries::kernel
