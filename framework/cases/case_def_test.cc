#include "cases/case_def.h"

#include <gtest/gtest.h>

#include "cases/memmap_timing.h"
#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::cases {
namespace {

TEST(CaseDefTest, LoadsTheBundledMemmapTiming) {
  const auto def = load_case(testing::source_dir() / "testcases", "memmap-timing");
  EXPECT_EQ(def.needs, std::vector<std::string>{"pmem"});
  EXPECT_NE(def.cmdline.find("mm/mm_init.c +p"), std::string::npos);
  EXPECT_GT(def.timeout.count(), 60);
}

TEST(CaseDefTest, BadTimeoutNamesTheLine) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf", "needs: pmem\ntimeout: soon\n");
  try {
    load_case(tmp.path(), "c");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("case.conf:2: timeout must be a number"),
              std::string::npos)
        << e.what();
  }
}

// "timeout: 0" (and -5, 30s) and a memory no machine has were accepted:
// refused at load, naming the line.
TEST(CaseDefTest, TimeoutAndMemoryHaveRanges) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  const auto refused = [&](const std::string& line, const std::string& message) {
    testing::put_file(tmp / "c" / "case.conf", "needs: pmem\n" + line + "\n");
    try {
      load_case(tmp.path(), "c");
      ADD_FAILURE() << "accepted " << line;
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::k_usage_or_infra);
      EXPECT_NE(std::string(e.what()).find("case.conf:2: " + message), std::string::npos)
          << e.what();
    }
  };
  for (const std::string bad : {"0", "-5", "30s", "99999999999999999999"}) {
    refused("timeout: " + bad, "timeout must be a number of seconds from 1");
  }
  refused("memory: 99999999999999999999G", "memory must be a size");
  refused("memory: 20000G", "memory must be a size");
  refused("memory: 0M", "memory must be a size");
  testing::put_file(tmp / "c" / "case.conf", "timeout: 45\nmemory: 4096M\n");
  EXPECT_EQ(load_case(tmp.path(), "c").timeout.count(), 45);
  // A BOM before the first key.
  testing::put_file(tmp / "c" / "case.conf",
                    "\xEF\xBB\xBF"
                    "needs: pmem\n");
  EXPECT_THROW(load_case(tmp.path(), "c"), Error);
}

TEST(CaseDefTest, LoadsTheBundledMemmapEquivalenceWithItsModuleAndOracle) {
  const auto def = load_case(testing::source_dir() / "testcases", "memmap-equivalence");
  EXPECT_EQ(def.modules, std::vector<std::string>{"memmap-dump"});
  EXPECT_EQ(def.oracle, "memmap-equivalence");
  const auto vs = load_case(testing::source_dir() / "testcases", "memmap-vs-base");
  EXPECT_EQ(vs.oracle, "memmap-vs-base");
}

// Found by ci/fuzz (config_files): a 300-character module name made
// std::filesystem::exists throw ENAMETOOLONG past the parser's refusal.
TEST(CaseDefTest, AModuleThatIsAPathOrTooLongIsRefusedNotThrown) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  for (const std::string& module :
       {std::string(300, 'A'), std::string("../c"), std::string(".."), std::string("a/b")}) {
    testing::put_file(tmp / "c" / "case.conf", "needs: pmem\nmodules: " + module + "\n");
    try {
      load_case(tmp.path(), "c");
      FAIL() << module;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is not a directory name"), std::string::npos)
          << e.what();
    }
  }
}

TEST(CaseDefTest, AModuleWithoutKbuildAndAnUnknownOracleNameTheLine) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf", "needs: pmem\nmodules: nodir\n");
  try {
    load_case(tmp.path(), "c");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("case.conf:2: module 'nodir' has no"), std::string::npos)
        << e.what();
  }
  // One name of letters, digits and '-' (which names exist is the oracle
  // registry's: session/oracle_test.cc).
  testing::put_file(tmp / "c" / "case.conf", "oracle: Crystal Ball\n");
  try {
    load_case(tmp.path(), "c");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("case.conf:1: oracle must be"), std::string::npos)
        << e.what();
  }
}

TEST(CaseDefTest, SetupsAndTcgCpu) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf",
                    "oracle: hugetlb-tails\nsetups: 1G 2M\ntcg-cpu: qemu64,+pdpe1gb\n");
  const CaseDef def = load_case(tmp.path(), "c");
  EXPECT_EQ(def.oracle, "hugetlb-tails");
  EXPECT_EQ(def.setups, (std::vector<std::string>{"1G", "2M"}));
  EXPECT_EQ(def.tcg_cpu, "qemu64,+pdpe1gb");
  testing::put_file(tmp / "c" / "case.conf", "setups: a\ntcg-cpu: qemu64 max\n");
  try {
    load_case(tmp.path(), "c");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("case.conf:2: tcg-cpu must be one QEMU -cpu model"),
              std::string::npos)
        << e.what();
  }
}

TEST(CaseDefTest, ClockIsWallOrIcount) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf", "setups: a\n");
  EXPECT_EQ(load_case(tmp.path(), "c").clock, "");
  testing::put_file(tmp / "c" / "case.conf", "clock: wall\n");
  EXPECT_EQ(load_case(tmp.path(), "c").clock, "wall");
  testing::put_file(tmp / "c" / "case.conf", "setups: a\nclock: memory\n");
  try {
    load_case(tmp.path(), "c");
    FAIL() << "clock: memory was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("case.conf:2: clock must be wall or icount, not 'memory'"),
              std::string::npos)
        << e.what();
  }
}

TEST(CaseDefTest, RebindsIsANumberOfRebinds) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf", "setups: a\n");
  EXPECT_FALSE(load_case(tmp.path(), "c").rebinds.has_value());
  testing::put_file(tmp / "c" / "case.conf", "rebinds: 30\n");
  EXPECT_EQ(load_case(tmp.path(), "c").rebinds, 30);
  for (const std::string bad : {"0", "x", "-1", "10001", "3 4"}) {
    testing::put_file(tmp / "c" / "case.conf", "setups: a\nrebinds: " + bad + "\n");
    try {
      load_case(tmp.path(), "c");
      ADD_FAILURE() << "rebinds: " << bad << " was taken";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("case.conf:2: rebinds must be a number from 1 to 10000"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(CaseDefTest, Memory) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf", "setups: 1G\n");
  EXPECT_EQ(load_case(tmp.path(), "c").memory, "");
  testing::put_file(tmp / "c" / "case.conf", "memory: 16G\n");
  EXPECT_EQ(load_case(tmp.path(), "c").memory, "16G");
  for (const std::string bad : {"16", "G", "16 G", "-1G", "16T", "1.5G"}) {
    testing::put_file(tmp / "c" / "case.conf", "setups: a\nmemory: " + bad + "\n");
    try {
      load_case(tmp.path(), "c");
      ADD_FAILURE() << "accepted memory: " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("case.conf:2: memory must be a size"), std::string::npos)
          << e.what();
    }
  }
}

TEST(MemmapTimingTest, FirstBindIsApartAndTicksAreMaterial) {
  TimingData data;
  std::vector<guest::Measurement> ms = {
      {"fsdax-dev", 1, "memmap_init_ms", 120, "ms", "first", {{"pages", "515584"}}},
      {"fsdax-dev", 2, "memmap_init_ms", 35, "ms", "rebind", {}},
      {"fsdax-dev", 3, "memmap_init_ms", 36, "ms", "rebind", {}},
      {"boot-probe", 0, "memmap_init_ms", 60, "ms", "probe", {}}};
  add_boot(data, ms);
  const auto& s = data.at({"fsdax-dev", "memmap_init_ms"});
  EXPECT_EQ(s.first, std::vector<double>{120});
  EXPECT_EQ(s.rebinds, (std::vector<double>{35, 36}));
  EXPECT_EQ(s.rebind_blocks, (std::vector<std::size_t>{2}));
  add_boot(data, {{"fsdax-dev", 2, "memmap_init_ms", 30, "ms", "rebind", {}}});
  EXPECT_EQ(data.at({"fsdax-dev", "memmap_init_ms"}).rebind_blocks,
            (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(s.pages, 515584);
  EXPECT_EQ(data.at({"boot-probe", "memmap_init_ms"}).probe, std::vector<double>{60});
  EXPECT_EQ(compare_options_for("ms").min_absolute, 2);
  EXPECT_EQ(compare_options_for("ns").min_absolute, 0);
  const std::string table = render_summary_table("base", data);
  EXPECT_NE(table.find("fsdax-dev"), std::string::npos);
  EXPECT_NE(table.find("120"), std::string::npos) << table;  // the first bind, apart
}

// hugetlb-timing: one sample per folio (1G) or per page (2M) is what gets
// compared; the whole-phase figures (kind=first) stay apart.
TEST(MemmapTimingTest, PerFolioSamplesAreComparedAndPhaseFiguresStayApart) {
  TimingData data;
  add_boot(data, {{"1G", 1, "gather_ns", 2e8, "ns", "first", {{"folios", "8"}}},
                  {"1G", 1, "tail_init_ns", 24e6, "ns", "folio", {}},
                  {"1G", 2, "tail_init_ns", 24.1e6, "ns", "folio", {}},
                  {"2M", 1, "tail_init_ns", 9e3, "ns", "page", {}}});
  EXPECT_EQ(data.at({"1G", "gather_ns"}).first, std::vector<double>{2e8});
  EXPECT_TRUE(data.at({"1G", "gather_ns"}).rebinds.empty());
  EXPECT_EQ(data.at({"1G", "tail_init_ns"}).rebinds, (std::vector<double>{24e6, 24.1e6}));
  EXPECT_TRUE(data.at({"1G", "tail_init_ns"}).first.empty());
  EXPECT_EQ(data.at({"1G", "tail_init_ns"}).rebind_blocks, std::vector<std::size_t>{2});
  EXPECT_EQ(data.at({"2M", "tail_init_ns"}).rebinds, std::vector<double>{9e3});
}

TEST(CaseDefTest, ArchitectureKeysReplaceThePlainOnesForThatArchitectureOnly) {
  testing::TempDir tmp;
  testing::put_file(tmp / "c" / "guest.sh", "#!/bin/sh\n");
  testing::put_file(tmp / "c" / "case.conf",
                    "cmdline: hugepages=8\nmemory: 16G\narm64.memory: 72G\n"
                    "arm64.cmdline: hugepages=64\n");
  const CaseDef def = load_case(tmp.path(), "c");
  EXPECT_EQ(def.memory, "16G");
  EXPECT_EQ(def.for_arch("x86_64").memory, "16G");
  EXPECT_EQ(def.for_arch("x86_64").cmdline, "hugepages=8");
  const CaseDef arm64 = def.for_arch("arm64");
  EXPECT_EQ(arm64.memory, "72G");
  EXPECT_EQ(arm64.cmdline, "hugepages=64");
  EXPECT_EQ(arm64.for_arch("x86_64").memory, "72G");  // applied once, then gone
  for (const std::string bad :
       {"arm64.memory: 7.5G", "riscv.memory: 8G", "arm64.oracle: x", "arm64.: 1"}) {
    testing::put_file(tmp / "c" / "case.conf", "setups: a\n" + bad + "\n");
    EXPECT_THROW(load_case(tmp.path(), "c"), Error) << bad;
  }
}

TEST(MemmapTimingTest, IcountLabelsEveryTimeByItsClock) {
  std::vector<guest::Measurement> ms = {
      {"fsdax-dev", 2, "memmap_init_ns", 30e6, "ns", "rebind", {}},
      {"fsdax-dev", 2, "memmap_init_ms", 35, "ms", "rebind", {}},
      {"fsdax-dev", 2, "bind_ns", 9e7, "ns", "rebind", {}},
      {"private-9", 1, "remap", 12, "ns", "first", {}},
      {"fsdax-dev", 2, "page_ref_set", 524288, "events", "rebind", {}}};
  auto wall = ms;
  label_clock(wall, qemu::Clock::k_wall);
  EXPECT_EQ(wall[0].metric, "memmap_init_ns");
  label_clock(ms, qemu::Clock::k_icount);
  EXPECT_EQ(ms[0].metric, "memmap_init_vns");
  EXPECT_EQ(ms[0].unit, "vns");
  EXPECT_EQ(ms[1].metric, "memmap_init_vms");
  EXPECT_EQ(ms[1].unit, "vms");
  EXPECT_EQ(ms[2].metric, "bind_vns");
  EXPECT_EQ(ms[3].metric, "remap_vns");
  EXPECT_EQ(ms[4].metric, "page_ref_set");  // counts are not times
  EXPECT_EQ(ms[4].unit, "events");
  EXPECT_DOUBLE_EQ(compare_options_for("vns").min_relative, 0.0025);
  EXPECT_GT(compare_options_for("vns").boot_agreement, 0);
  EXPECT_EQ(compare_options_for("vms").min_absolute, 2);
  EXPECT_EQ(compare_options_for("ns").boot_agreement, 0);
}

// Real readings, one boot a side under icount. The base kernel against
// itself (the real test's A/A in a fresh clone on a loaded machine, run
// 20261206-215630-boot): the whole bind said "slower, +5.3 % [+2.7 %,
// +8.1 %], p=0.0079" and failed the A/A; memmap_init_vns said same. And v1
// against the base on memmap-types (run 20261206-211509-gate): private-0's
// memremap_vns +13.5 %, within what single boots of one kernel differ by
// on that metric (13.1 %).
TEST(MemmapTimingTest, ANoisyMetricsChangeWithinTheBootToBootVariationIsUnknownAndBootsAgain) {
  const auto one_boot = [](std::vector<double> rebinds) {
    MetricSamples s;
    s.unit = "vns";
    s.rebind_blocks = {rebinds.size()};
    s.rebinds = std::move(rebinds);
    return s;
  };
  const auto bind_base = one_boot({12508039, 12706035, 13424767, 13448186, 12955780});
  const auto bind_again = one_boot({13700192, 13702033, 13699682, 13698046, 13693792});
  const auto init_base = one_boot({7540115, 7539337, 7539119, 7539304, 7536088});
  const auto init_again = one_boot({7540416, 7540455, 7540002, 7539325, 7539141});

  auto options = compare_options_for("bind_vns", bind_base, bind_again);
  EXPECT_DOUBLE_EQ(options.between_boots, k_between_boots);
  auto c = stats::compare(bind_base.rebinds, bind_again.rebinds, options);
  EXPECT_EQ(c.verdict, stats::Verdict::k_unknown) << c.reason;
  EXPECT_NE(c.reason.find("within what single boots of one kernel differ by"), std::string::npos);
  options.between_boots = 0;  // as before: a false "slower"
  EXPECT_EQ(stats::compare(bind_base.rebinds, bind_again.rebinds, options).verdict,
            stats::Verdict::k_slower);
  // The near-deterministic metric keeps its 0.25 % and no allowance.
  EXPECT_EQ(compare_options_for("memmap_init_vns", init_base, init_again).between_boots, 0);
  EXPECT_EQ(stats::compare(init_base.rebinds, init_again.rebinds,
                           compare_options_for("memmap_init_vns", init_base, init_again))
                .verdict,
            stats::Verdict::k_same);
  // Two boots a side: the boots are the units, and carry the variation.
  auto two = bind_base;
  two.rebinds.insert(two.rebinds.end(), bind_again.rebinds.begin(), bind_again.rebinds.end());
  two.rebind_blocks = {5, 5};
  EXPECT_EQ(compare_options_for("bind_vns", two, two).between_boots, 0);

  TimingData a, b;
  a[{"devdax-mem", "bind_vns"}] = bind_base;
  b[{"devdax-mem", "bind_vns"}] = bind_again;
  a[{"devdax-mem", "memmap_init_vns"}] = init_base;
  b[{"devdax-mem", "memmap_init_vns"}] = init_again;
  EXPECT_EQ(undecided_virtual_metrics(a, b), std::vector<std::string>{"bind_vns.devdax-mem"});

  // v1's memremap_pages(): unknown after one pair, a second pair decides.
  const auto remap_base = one_boot({7422321, 7650360, 7720930, 7835142, 7835104});
  const auto remap_v1 = one_boot({8733449, 8731489, 8731494, 8731352, 8731359});
  EXPECT_EQ(stats::compare(remap_base.rebinds, remap_v1.rebinds,
                           compare_options_for("memremap_vns", remap_base, remap_v1))
                .verdict,
            stats::Verdict::k_unknown);
  // The same metric from two quiet boots (run 20261206-222705-boot: each
  // at 0.01-0.09 % spread, +10.8 % apart) is still one boot a side.
  const auto quiet_base = one_boot({7878000, 7879000, 7878500, 7879200, 7878700});
  EXPECT_DOUBLE_EQ(compare_options_for("memremap_vns", quiet_base, remap_v1).between_boots,
                   k_between_boots);
  // A change beyond it is decided by one pair: the whole bind at about
  // v10's on devdax-mem (mean 8.9e6 vns, -31.6 %, run 20261206-214553-boot).
  const auto bind_v10 = one_boot({8646000, 8925000, 8948000, 8887000, 9056000});
  EXPECT_EQ(stats::compare(bind_base.rebinds, bind_v10.rebinds,
                           compare_options_for("bind_vns", bind_base, bind_v10))
                .verdict,
            stats::Verdict::k_faster);
}

}  // namespace
}  // namespace kseries::cases
