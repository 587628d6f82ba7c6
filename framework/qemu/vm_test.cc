#include "qemu/vm.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"

namespace kseries::qemu {
namespace {

bool has_pair(const std::vector<std::string>& argv, const std::string& a, const std::string& b) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == a && argv[i + 1] == b) {
      return true;
    }
  }
  return false;
}

TEST(VmTest, LegacyPmemArgv) {
  VmSpec spec;
  spec.kernel = "/k/bzImage";
  spec.initramfs = "/k/initramfs.cpio";
  spec.run_dir = "/r";
  spec.cmdline = "kseries.case=memmap-timing";
  const auto argv = qemu_argv(spec, "tcg");
  EXPECT_EQ(argv[0], "qemu-system-x86_64");
  EXPECT_TRUE(has_pair(argv, "-accel", "tcg"));
  EXPECT_TRUE(has_pair(argv, "-m", "8G"));
  EXPECT_TRUE(has_pair(argv, "-serial", "file:/r/boot.console.log"));
  EXPECT_TRUE(has_pair(argv, "-serial", "file:/r/boot.protocol.log"));
  EXPECT_TRUE(has_pair(argv, "-drive", "file=/r/boot.bulk.img,format=raw,if=virtio"));
  EXPECT_TRUE(has_pair(argv, "-append",
                       "console=ttyS0 nokaslr loglevel=8 panic=-1 memmap=2G!4G "
                       "kseries.case=memmap-timing"));
  EXPECT_NE(std::find(argv.begin(), argv.end(), "-no-reboot"), argv.end());
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "-cpu"), argv.end());
}

TEST(VmTest, IcountClockAddsIcountUnderTcgOnly) {
  VmSpec spec;
  spec.kernel = "/k/bzImage";
  spec.initramfs = "/k/initramfs.cpio";
  spec.run_dir = "/r";
  EXPECT_FALSE(has_pair(qemu_argv(spec, "tcg"), "-icount", "shift=0,sleep=off"));
  spec.clock = Clock::k_icount;
  EXPECT_TRUE(has_pair(qemu_argv(spec, "tcg"), "-icount", "shift=0,sleep=off"));
  EXPECT_THROW(qemu_argv(spec, "kvm"), Error);
}

TEST(VmTest, ClockChoice) {
  EXPECT_EQ(choose_clock("auto", "tcg"), Clock::k_icount);
  EXPECT_EQ(choose_clock("auto", "kvm"), Clock::k_wall);
  EXPECT_EQ(choose_clock("wall", "tcg"), Clock::k_wall);
  EXPECT_EQ(choose_clock("icount", "tcg"), Clock::k_icount);
  EXPECT_THROW(choose_clock("icount", "kvm"), Error);
  EXPECT_THROW(choose_clock("sundial", "tcg"), Error);
  EXPECT_EQ(clock_name(Clock::k_icount), "icount");
}

TEST(VmTest, LegacyPmemMustLieInTheGuestsRam) {
  VmSpec spec;
  spec.kernel = "k";
  spec.initramfs = "i";
  spec.run_dir = "/r";
  const auto refusal = [&spec](const std::string& memory, const std::string& pmem) {
    spec.memory = memory;
    spec.pmem_size = pmem;
    try {
      qemu_argv(spec, "tcg");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // The pc machine: 3 GiB below 4 GiB from 3.5 GiB of RAM on, the rest
  // from 4 GiB; memmap=256M!4G needs 3.5 GiB, 2G!4G needs 5 GiB.
  EXPECT_EQ(refusal("3584M", "256M"), "");
  EXPECT_TRUE(has_pair(qemu_argv(spec, "tcg"), "-m", "3584M"));
  EXPECT_NE(refusal("3G", "256M").find("at least 3584M"), std::string::npos);
  EXPECT_EQ(refusal("5G", "2G"), "");
  EXPECT_NE(refusal("4G", "2G").find("at least 5120M"), std::string::npos);
}

TEST(VmTest, NvdimmArgvAndKvmCpu) {
  VmSpec spec;
  spec.kernel = "k";
  spec.initramfs = "i";
  spec.run_dir = "/r";
  spec.pmem = PmemTopology::k_nvdimm;
  spec.pmem_size = "4G";
  const auto argv = qemu_argv(spec, "kvm");
  EXPECT_TRUE(has_pair(argv, "-cpu", "host"));
  EXPECT_TRUE(has_pair(argv, "-machine", "pc,nvdimm=on"));
  EXPECT_TRUE(
      has_pair(argv, "-object",
               "memory-backend-file,id=nvmem0,share=on,mem-path=/r/boot.nvdimm.img,size=4G"));
  EXPECT_TRUE(has_pair(argv, "-device", "nvdimm,id=nvdimm0,memdev=nvmem0"));
  for (const auto& arg : argv) {
    EXPECT_EQ(arg.find("memmap="), std::string::npos) << arg;
  }
}

TEST(VmTest, NoPmemLeavesTheRamWhole) {
  VmSpec spec;
  spec.kernel = "k";
  spec.initramfs = "i";
  spec.run_dir = "/r";
  spec.pmem = PmemTopology::k_none;
  spec.memory = "2G";  // smaller than legacy pmem at 4G would need: not checked
  const auto argv = qemu_argv(spec, "tcg");
  EXPECT_TRUE(has_pair(argv, "-m", "2G"));
  for (const auto& arg : argv) {
    EXPECT_EQ(arg.find("memmap="), std::string::npos) << arg;
    EXPECT_EQ(arg.find("nvdimm"), std::string::npos) << arg;
  }
  EXPECT_EQ(pmem_cmdline(spec), "");
  spec.arch = "arm64";
  EXPECT_EQ(pmem_cmdline(spec), "");  // no mem= carve
  EXPECT_EQ(arm64_pmem_node(spec), "");
}

TEST(VmTest, CaseCpuModelOnlyUnderTcg) {
  VmSpec spec;
  spec.kernel = "k";
  spec.initramfs = "i";
  spec.run_dir = "/r";
  spec.tcg_cpu = "qemu64,+pdpe1gb";
  EXPECT_TRUE(has_pair(qemu_argv(spec, "tcg"), "-cpu", "qemu64,+pdpe1gb"));
  const auto kvm = qemu_argv(spec, "kvm");
  EXPECT_TRUE(has_pair(kvm, "-cpu", "host"));
  EXPECT_EQ(std::count(kvm.begin(), kvm.end(), "-cpu"), 1);
}

TEST(VmTest, Arm64VirtArgvCarvesThePmemFromRam) {
  VmSpec spec;
  spec.arch = "arm64";
  spec.kernel = "/k/Image";
  spec.initramfs = "/k/initramfs.cpio";
  spec.run_dir = "/r";
  spec.cmdline = "kseries.case=hugetlb-tails";
  spec.clock = Clock::k_icount;
  const auto argv = qemu_argv(spec, "tcg");
  EXPECT_EQ(argv[0], "qemu-system-aarch64");
  // Guest RAM without a host reservation (larger guests than the host).
  EXPECT_TRUE(has_pair(argv, "-machine", "virt,gic-version=3,memory-backend=kseries-ram"));
  EXPECT_TRUE(has_pair(argv, "-object", "memory-backend-ram,id=kseries-ram,size=8G,reserve=off"));
  EXPECT_TRUE(has_pair(argv, "-cpu", "cortex-a57"));
  EXPECT_TRUE(has_pair(argv, "-icount", "shift=0,sleep=off"));
  EXPECT_TRUE(has_pair(argv, "-serial", "file:/r/boot.console.log"));
  EXPECT_TRUE(has_pair(argv, "-chardev", "file,id=kseries-protocol,path=/r/boot.protocol.log"));
  EXPECT_TRUE(has_pair(argv, "-device", "virtconsole,chardev=kseries-protocol"));
  EXPECT_TRUE(has_pair(argv, "-dtb", "/r/boot.dtb"));
  EXPECT_TRUE(has_pair(argv, "-m", "8G"));
  // 8G of RAM from 1 GiB: the kernel keeps 6G, the pmem is the top 2G.
  EXPECT_TRUE(has_pair(argv, "-append",
                       "console=ttyAMA0 kseries.out=/dev/hvc0 nokaslr loglevel=8 panic=-1 "
                       "mem=6144M kseries.case=hugetlb-tails"));
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "-vga"), argv.end());
  const std::string node = arm64_pmem_node(spec);
  EXPECT_NE(node.find("pmem@1c0000000 {"), std::string::npos) << node;
  EXPECT_NE(node.find("compatible = \"pmem-region\";"), std::string::npos) << node;
  EXPECT_NE(node.find("reg = <0x1 0xc0000000 0x0 0x80000000>;"), std::string::npos) << node;
  // 16G guests (hugetlb-timing): the pmem moves with the top of RAM.
  spec.memory = "16G";
  EXPECT_NE(arm64_pmem_node(spec).find("reg = <0x3 0xc0000000 0x0 0x80000000>;"),
            std::string::npos);
  EXPECT_NE(pmem_cmdline(spec).find("mem=14336M"), std::string::npos);
}

TEST(VmTest, Arm64RefusesKvmNvdimmAndUncarvablePmem) {
  VmSpec spec;
  spec.arch = "arm64";
  EXPECT_THROW(qemu_argv(spec, "kvm"), Error);
  spec.pmem = PmemTopology::k_nvdimm;
  EXPECT_THROW(qemu_argv(spec, "tcg"), Error);
  spec.pmem = PmemTopology::k_legacy;
  spec.pmem_size = "8G";  // all of the RAM
  EXPECT_THROW(qemu_argv(spec, "tcg"), Error);
  spec.pmem_size = "100M";  // not whole sections
  EXPECT_THROW(qemu_argv(spec, "tcg"), Error);
  // x86 is untouched by any of it.
  VmSpec x86;
  EXPECT_EQ(arm64_pmem_node(x86), "");
  EXPECT_EQ(pmem_cmdline(x86), "memmap=2G!4G");
}

TEST(VmTest, MemorySizes) {
  EXPECT_EQ(parse_memory_size("8G"), 8ull << 30);
  EXPECT_EQ(parse_memory_size("512M"), 512ull << 20);
  EXPECT_EQ(parse_memory_size("4096"), 4096u);
  for (const char* bad : {"", "G", "8X", "-1G", "99999999999999G", "8GB"}) {
    EXPECT_THROW(parse_memory_size(bad), Error) << bad;
  }
}

}  // namespace
}  // namespace kseries::qemu
