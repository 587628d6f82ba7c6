#include "memcost/profile.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/text.h"
#include "kseries_source_dir.h"
#include "memcost/record.h"
#include "memcost/symbols.h"
#include "sys/files.h"

namespace kseries::memcost {
namespace {

std::vector<std::string> split_lines_for_test(const std::string& text) {
  std::vector<std::string> lines;
  for (const auto line : split_lines(text)) {
    lines.emplace_back(line);
  }
  return lines;
}

const char* k_profile =
    "l1d: 49152 12\nl2: 1310720 20\nllc: 62914560 12\nwc-buffers: 12\nfrequency-ghz: 3.4\n"
    "ipc: 4\nread-gbps: 11.4\nwrite-gbps: 20\nseed-memmap-bytes: 1677721600\n";

TEST(MachineProfileTest, TheBundledProfileLoads) {
  const auto p = load_profile(
      "icelake-sp", std::filesystem::path(KSERIES_SOURCE_DIR) / "kernel-configs" / "machines");
  EXPECT_EQ(p.name, "icelake-sp");
  EXPECT_EQ(p.llc.bytes, 62914560u);
  EXPECT_EQ(p.wc_buffers, 12u);
}

TEST(MachineProfileTest, MistakesNameTheFileAndLine) {
  try {
    parse_profile(std::string(k_profile) + "l3: 1 1\n", "x.machine");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("x.machine:10: unknown key 'l3'"), std::string::npos);
  }
  EXPECT_THROW(parse_profile("l1d: 49152\n", "x"), Error);
  EXPECT_THROW(parse_profile("ipc: -1\n", "x"), Error);
  EXPECT_THROW(parse_profile("ipc: nan\n", "x"), Error);
  EXPECT_THROW(parse_profile("l1d: 49152 12\n", "x"), Error);  // incomplete
}

TEST(MachineProfileTest, NumbersAreTakenOnlyAsWritten) {
  const std::string base(k_profile);
  // The figures the first reader took on trust (issue 50, class 8).
  const auto refused = [&](const std::string& key, const std::string& value) {
    // The key's line replaced (the others kept), so only VALUE is wrong.
    std::string text;
    for (const auto& line : split_lines_for_test(base)) {
      text += (line.rfind(key + ":", 0) == 0 ? key + ": " + value : line) + "\n";
    }
    try {
      parse_profile(text, "p.machine");
    } catch (const Error& e) {
      return std::string(e.what()).find(key) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused("seed-memmap-bytes", "-1"));  // was 2^64 - 1
  EXPECT_TRUE(refused("seed-memmap-bytes", "+5"));
  EXPECT_TRUE(refused("seed-memmap-bytes", "0x10"));
  EXPECT_TRUE(refused("seed-memmap-bytes", "18446744073709551615"));  // 2^64 - 1 written out
  EXPECT_TRUE(refused("seed-memmap-bytes", "1e9"));
  EXPECT_TRUE(refused("wc-buffers", "33"));  // was silently 32 or 33
  EXPECT_TRUE(refused("wc-buffers", "-12"));
  EXPECT_TRUE(refused("l2", "-1310720 20"));
  EXPECT_TRUE(refused("l2", "1310720 -20"));
  EXPECT_TRUE(refused("ipc", "inf"));
  EXPECT_TRUE(refused("ipc", "infinity"));
  EXPECT_TRUE(refused("ipc", "0x1p2"));
  EXPECT_TRUE(refused("ipc", "4e0"));
  EXPECT_TRUE(refused("ipc", "-4"));
  EXPECT_TRUE(refused("read-gbps", "1e300"));
  EXPECT_TRUE(refused("write-gbps", ".5"));
  EXPECT_FALSE(refused("ipc", "4.25"));  // the control: a good value is kept
  EXPECT_DOUBLE_EQ(parse_profile(base, "p").read_gbps, 11.4);
}

TEST(MachineProfileTest, AKeyGivenTwiceIsAMistakeNotTheLastValue) {
  try {
    parse_profile(std::string(k_profile) + "read-gbps: 99\n", "p.machine");
    FAIL() << "a repeated key was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("p.machine:10: read-gbps: given twice (first at line 7)"),
              std::string::npos)
        << e.what();
  }
}

TEST(MachineProfileTest, WhetherLocksOrderNonTemporalStoresIsAFigureOfTheProfile) {
  EXPECT_TRUE(parse_profile(k_profile, "p").locked_orders_nt);  // unsaid: yes (both x86 vendors)
  const auto no = parse_profile(std::string(k_profile) + "locked-orders-nt: no\n", "p");
  EXPECT_FALSE(no.locked_orders_nt);
  EXPECT_THROW(parse_profile(std::string(k_profile) + "locked-orders-nt: maybe\n", "p"), Error);
  MemoryClockSettings a, b;
  a.profile = parse_profile(k_profile, "p");
  b.profile = no;
  EXPECT_NE(settings_key(a), settings_key(b));
  // Every bundled profile says it, with its source.
  for (const char* name : {"icelake-sp", "epyc-zen", "emerald-rapids-vm"}) {
    const auto dir = std::filesystem::path(KSERIES_SOURCE_DIR) / "kernel-configs" / "machines";
    EXPECT_NE(read_file(dir / (std::string(name) + ".machine")).find("\nlocked-orders-nt: "),
              std::string::npos)
        << name;
    EXPECT_NO_THROW(load_profile(name, dir)) << name;
  }
}

TEST(MachineProfileTest, ScalingKeepsTheMemmapToCacheRatio) {
  const auto p = parse_profile(k_profile, "x");
  // A 2 GiB namespace: 32 MiB of struct pages, 1/50 of the seeds'.
  const auto s = scaled_to(p, 32ull << 20);
  EXPECT_NEAR(static_cast<double>(s.llc.bytes), 62914560.0 / 50, 768);
  EXPECT_EQ(s.llc.ways, 12u);
  EXPECT_EQ(s.l1d.bytes % (64 * 12), 0u);
  EXPECT_GE(s.l1d.bytes, 64u * 12);  // at least one set
  EXPECT_DOUBLE_EQ(s.scale, 1.0 / 50);
  EXPECT_EQ(scaled_to(p, 2ull << 30).llc.bytes, p.llc.bytes);  // larger: unchanged
}

TEST(MachineProfileTest, TheTimeIsTheLargerOfComputeAndMemory) {
  const auto p = parse_profile(k_profile, "x");
  WindowCost w;
  w.insns = 13600;  // 1000 ns at 3.4 GHz x 4
  EXPECT_DOUBLE_EQ(modelled_ns(p, w), 1000);
  w.dram_read = 11400 * 2;  // 2000 ns at 11.4 GB/s
  w.dram_write = 20000;     // 1000 ns at 20 GB/s
  EXPECT_DOUBLE_EQ(modelled_ns(p, w), 3000);
  EXPECT_EQ(plugin_model(p, "m"), "model=m:49152:12:1310720:20:62914560:12:12");
}

TEST(MachineProfileTest, TheSerialShareAddsWhatTheLongerTermDoesNotHide) {
  auto p = parse_profile(std::string(k_profile) + "serial: 0.25\n", "x");
  EXPECT_DOUBLE_EQ(p.serial, 0.25);
  WindowCost w;
  w.insns = 13600;       // compute 1000 ns
  w.dram_write = 40000;  // memory 2000 ns
  EXPECT_DOUBLE_EQ(modelled_ns(p, w), 2000 + 0.25 * 1000);
  w.insns = 13600 * 3;  // compute-bound: 3000 + 0.25 * 2000
  EXPECT_DOUBLE_EQ(modelled_ns(p, w), 3500);
  p.serial = 1;  // no overlap: the sum
  EXPECT_DOUBLE_EQ(modelled_ns(p, w), 5000);
  EXPECT_NE(describe(p).find("serial 1)"), std::string::npos);
  // Without the key: the throughput bound of the profiles written before it.
  EXPECT_DOUBLE_EQ(parse_profile(k_profile, "x").serial, 0);
  EXPECT_NO_THROW(parse_profile(std::string(k_profile) + "serial: 0\n", "x"));
  EXPECT_THROW(parse_profile(std::string(k_profile) + "serial: 1.5\n", "x"), Error);
  EXPECT_THROW(parse_profile(std::string(k_profile) + "serial: -0.1\n", "x"), Error);
  EXPECT_THROW(parse_profile(std::string(k_profile) + "serial: nan\n", "x"), Error);
}

TEST(MachineProfileTest, EveryFigureThatDecidesATimeIsInTheSettingsKey) {
  MemoryClockSettings settings;
  EXPECT_EQ(settings_key(settings), "none");
  settings.profile = parse_profile(k_profile, "x");
  const std::string before = settings_key(settings);
  auto changed = settings;
  changed.profile->serial = 0.17;
  EXPECT_NE(settings_key(changed), before);
  changed = settings;
  changed.profile->write_gbps = 19;
  EXPECT_NE(settings_key(changed), before);
  changed = settings;
  changed.unscaled = true;
  EXPECT_NE(settings_key(changed), before);
  changed = settings;
  changed.llc_sweep = {8u << 20};
  EXPECT_NE(settings_key(changed), before);
  EXPECT_EQ(settings_key(settings), before);  // the same settings, the same key
}

TEST(MachineProfileTest, ALongProfileNameDoesNotHideTheFiguresFromTheKey) {
  MemoryClockSettings settings;
  settings.profile = parse_profile(k_profile, "x");
  settings.profile->name = std::string(600, 'n');  // longer than a file name can be
  const std::string before = settings_key(settings);
  auto changed = settings;
  changed.profile->serial = 0.5;
  EXPECT_NE(settings_key(changed), before);
}

TEST(MemcostRecordsTest, WindowsOrderAndHazardsAreRead) {
  const auto r = parse_records(
      "memcost version=1 entry=0x1 models=1 irq_entries=0 order=on\n"
      "window seq=1 vcpu=0 model=m insns=10 loads=1 stores=2 nt_stores=3 fences=1 l1_miss=1 "
      "l2_miss=1 llc_miss=1 dram_read=64 dram_write=128 wc_full=1 wc_partial=0 irqs=0 "
      "irq_insns=0 irq_dram_read=0 irq_dram_write=0 switches=0\n"
      "order seq=1 vcpu=0 nt_stores=3 fences=1 overflow=0 hazards=1 dropped=0\n"
      "hazard seq=1 vcpu=0 kind=store nt_pc=0xffffffff81000010 pc=0xffffffff81000020 "
      "vaddr=0xffffea0000000040 count=7\n"
      "end windows=1\n");
  EXPECT_TRUE(r.header);
  EXPECT_TRUE(r.ended);
  ASSERT_EQ(r.windows.at("m").size(), 1u);
  EXPECT_EQ(r.windows.at("m")[0].dram_write, 128u);
  ASSERT_EQ(r.order.size(), 1u);
  ASSERT_EQ(r.order[0].hazards.size(), 1u);
  EXPECT_EQ(r.order[0].hazards[0].nt_pc, 0xffffffff81000010u);
  EXPECT_EQ(r.order[0].hazards[0].count, 7u);
  EXPECT_TRUE(r.problems.empty());
}

TEST(MemcostRecordsTest, LockedHazardsCarryTheirLockAndTheHeaderItsVendorRule) {
  const auto r = parse_records(
      "memcost version=1 entry=0x1 models=1 irq_entries=0 order=on instrument=always "
      "locked_nt=unordered addresses=physical\n"
      "order seq=1 vcpu=0 nt_stores=3 fences=0 locks=2 overflow=0 hazards=1 dropped=0\n"
      "hazard seq=1 vcpu=0 kind=locked-return nt_pc=0x10 pc=0x20 lock_pc=0x30 vaddr=0x40 "
      "count=3\n"
      "hazard seq=1 vcpu=0 kind=return nt_pc=0x10 pc=0x20 lock_pc=0x30 vaddr=0x40 count=3\n");
  EXPECT_FALSE(r.locked_orders_nt);
  ASSERT_EQ(r.order.size(), 1u);
  EXPECT_EQ(r.order[0].locks, 2u);
  ASSERT_EQ(r.order[0].hazards.size(), 1u);  // a plain return naming a lock is not read
  EXPECT_EQ(r.order[0].hazards[0].kind, "locked-return");
  EXPECT_EQ(r.order[0].hazards[0].lock_pc, 0x30u);
  EXPECT_EQ(r.problems.size(), 1u);
  // Before the word: ordered (the tracker treated locks as fences then).
  EXPECT_TRUE(parse_records("memcost version=1 entry=0x1\n").locked_orders_nt);
  EXPECT_FALSE(parse_records("memcost version=1 locked_nt=sometimes\n").problems.empty());
}

TEST(MemcostRecordsTest, LockedHazardsCarryWhereTheLockWasReachedFrom) {
  const auto r = parse_records(
      "memcost version=1 entry=0x1 models=1 order=on locked_nt=ordered\n"
      "order seq=1 vcpu=0 nt_stores=3 fences=0 locks=2 overflow=0 hazards=4 dropped=0\n"
      "hazard seq=1 vcpu=0 kind=locked-return nt_pc=0x10 pc=0x20 lock_pc=0x30 site=0x40 "
      "caller=0x50 vaddr=0x60 count=3\n"
      "hazard seq=1 vcpu=0 kind=locked-load nt_pc=0x10 pc=0x20 lock_pc=0x30 vaddr=0x60 count=1\n"
      "hazard seq=1 vcpu=0 kind=return nt_pc=0x10 pc=0x20 lock_pc=0x0 site=0x40 caller=0x0 "
      "vaddr=0x60 count=3\n"
      "hazard seq=1 vcpu=0 kind=locked-store nt_pc=0x10 pc=0x20 lock_pc=0x30 site=0x40 "
      "vaddr=0x60 count=3\n");
  ASSERT_EQ(r.order.size(), 1u);
  ASSERT_EQ(r.order[0].hazards.size(), 2u);
  EXPECT_TRUE(r.order[0].hazards[0].sites_known);
  EXPECT_EQ(r.order[0].hazards[0].site, 0x40u);
  EXPECT_EQ(r.order[0].hazards[0].caller, 0x50u);
  // Absent (a plugin from before the words): unknown, still read.
  EXPECT_FALSE(r.order[0].hazards[1].sites_known);
  EXPECT_EQ(r.order[0].hazards[1].lock_pc, 0x30u);
  // A plain return naming a call site, a site without its caller: not read.
  EXPECT_EQ(r.problems.size(), 2u);
}

TEST(MemcostRecordsTest, HostileLinesAreProblemsNotCrashes) {
  const auto r = parse_records(
      "window seq=1 vcpu=0 model=m insns=-5\n"
      "hazard seq=9 vcpu=0 kind=store nt_pc=0x1 pc=0x2 vaddr=0x3 count=1\n"
      "window seq=1 vcpu=0 model=m insns=99999999999999999999999\n"
      "\x1b[2Jgarbage\n" +
      std::string(100000, 'x') + "\n");
  EXPECT_FALSE(r.header);
  EXPECT_TRUE(r.windows.empty() || r.windows.begin()->second.empty());
  EXPECT_FALSE(r.problems.empty());
  EXPECT_LE(r.problems.size(), 6u);
}

TEST(KernelSymbolsTest, TheFunctionSwitchAndIrqEntriesAreFound) {
  const auto s = read_symbols(
      "ffffffff81001000 T asm_sysvec_apic_timer_interrupt\n"
      "ffffffff81001100 T asm_common_interrupt\n"
      "ffffffff81001200 T asm_exc_page_fault\n"
      "ffffffff81002000 T __switch_to_asm\n"
      "ffffffff81234560 T memmap_init_zone_device\n"
      "ffffffff81234560 t memmap_init_zone_device.cold\n",
      "memmap_init_zone_device", "System.map");
  EXPECT_EQ(s.entry, 0xffffffff81234560u);
  EXPECT_EQ(s.switch_to, 0xffffffff81002000u);
  EXPECT_EQ(s.irq_entries.size(), 3u);
  EXPECT_THROW(read_symbols("ffffffff81002000 T other\n", "memmap_init_zone_device", "m"), Error);
}

}  // namespace
}  // namespace kseries::memcost
