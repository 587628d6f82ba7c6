#include "oracle/memmap_state.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries::oracle {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The guest's text for one setup, the shape testcases/memmap-state/guest.sh
// writes (zones trimmed to two); MEMMAP_AFTER is nr_memmap_pages after the
// unbind, MT the migratetype of the bound range's second run.
std::string state_text(int memmap_after = 100, int mt = 1, int normal_span_after = 1310720) {
  const std::string zones_before =
      "zone Normal start_pfn 0x100000 spanned 1310720 present 1310720 contiguous 1\n"
      "zone Device start_pfn 0x0 spanned 0 present 0 contiguous 0\n";
  return "setup devdax1g-mem layout aligned\n"
         "moment before\nvmstat nr_memmap_pages 100\nvmstat nr_memmap_boot_pages 8000\n"
         "node 0 pageblock_order 9\n" +
         zones_before +
         "moment bound\nvmstat nr_memmap_pages 2148\nvmstat nr_memmap_boot_pages 8000\n"
         "node 0 pageblock_order 9\n"
         "zone Normal start_pfn 0x100000 spanned 1310720 present 1310720 contiguous 1\n"
         "zone Device start_pfn 0x100000 spanned 524288 present 0 contiguous 0\n"
         "range 0x100000-0x180000 init 0x100000-0x180000\n"
         "mt 0x100000 1 1\nmt 0x100200 1023 " +
         std::to_string(mt) +
         "\npageblocks 1024\n"
         "moment unbound\nvmstat nr_memmap_pages " +
         std::to_string(memmap_after) +
         "\nvmstat nr_memmap_boot_pages 8000\nnode 0 pageblock_order 9\n"
         "zone Normal start_pfn 0x100000 spanned " +
         std::to_string(normal_span_after) +
         " present 1310720 contiguous 1\n"
         "zone Device start_pfn 0x100000 spanned 524288 present 0 contiguous 0\n"
         "range 0x100000-0x180000 init 0x100000-0x180000\npageblocks 0\n"
         "moment destroyed\nvmstat nr_memmap_pages " +
         std::to_string(memmap_after) + "\nvmstat nr_memmap_boot_pages 8000\n" + zones_before;
}

TEST(MemmapState, ATeardownThatGivesEverythingBackPasses) {
  const auto state = parse_setup_state(state_text());
  EXPECT_EQ(state.setup, "devdax1g-mem");
  ASSERT_EQ(state.moments.size(), 4u);
  const auto verdict = judge_state(state);
  EXPECT_EQ(verdict.status, VerdictStatus::k_pass) << verdict.summary;
  EXPECT_TRUE(has(verdict.summary,
                  "the memmap costs nr_memmap_boot_pages 0 bound, "
                  "nr_memmap_pages 2048 bound"))
      << verdict.summary;
  EXPECT_TRUE(has(verdict.summary, "1024 pageblock(s)")) << verdict.summary;
}

TEST(MemmapState, MemmapPagesNotGivenBackFail) {
  const auto verdict = judge_state(parse_setup_state(state_text(164)));
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_TRUE(has(verdict.summary, "nr_memmap_pages 64 unbound (before the bind 100, bound 2148)"))
      << verdict.summary;
}

TEST(MemmapState, APageblockThatIsNotMovableFailsNamingItsPfn) {
  const auto verdict = judge_state(parse_setup_state(state_text(100, 0)));
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_TRUE(
      has(verdict.summary, "pageblock at pfn 0x100200 (and 1022 after it) has migratetype 0"))
      << verdict.summary;
}

// A teardown that touches a zone of RAM; ZONE_DEVICE keeping its span
// (above: as 6.12 does) is no failure.
TEST(MemmapState, AZoneOfRamChangedByTheTeardownFails) {
  const auto verdict = judge_state(parse_setup_state(state_text(100, 1, 1048576)));
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_TRUE(has(verdict.summary, "zone Normal unbound: Normal start 0x100000 spanned 1048576"))
      << verdict.summary;
}

TEST(MemmapState, TheSeriesAgainstTheBaseNamesTheMomentAndTheRun) {
  const auto base = parse_setup_state(state_text());
  EXPECT_EQ(judge_state_vs_base(base, base).status, VerdictStatus::k_pass);
  const auto verdict = judge_state_vs_base(base, parse_setup_state(state_text(100, 0)));
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_TRUE(has(verdict.summary,
                  "bound: pageblocks differ at run 2: 1023 pageblock(s) from "
                  "pfn 0x100200 of migratetype 0, the base has 1023 pageblock(s) "
                  "from pfn 0x100200 of migratetype 1"))
      << verdict.summary;
  const auto leak = judge_state_vs_base(base, parse_setup_state(state_text(164)));
  EXPECT_TRUE(has(leak.summary,
                  "unbound: nr_memmap_pages changed by 64 since the bind, the "
                  "base's by 0"))
      << leak.summary;
}

// The figures measured on 6.12.118 (2026-12-06, testcases/memmap-state):
// 2 GiB at 4 GiB fsdax-mem +8192, devdax-mem +2048, devdax1g-mem +4, any
// map=dev +8192; 448 MiB sharing its first section with boot RAM: fsdax-mem
// +1536, devdax-mem +384.
TEST(MemmapState, TheMemmapsCostIsReckonedFromTheRangeItsMapAndItsLayout) {
  StateMoment m;
  m.range_start_pfn = 0x100000;
  m.range_end_pfn = 0x180000;
  m.struct_page = 64;
  m.section_pages = 32768;
  m.has_device = true;
  std::string how;
  EXPECT_EQ(expected_memmap_pages(m, how), 8192);  // fsdax-mem (vmemmap_shift 0)
  m.vmemmap_shift = 9;
  EXPECT_EQ(expected_memmap_pages(m, how), 2048);  // devdax-mem
  m.vmemmap_shift = 18;
  EXPECT_EQ(expected_memmap_pages(m, how), 4);  // devdax1g-mem
  m.altmap = true;
  EXPECT_EQ(expected_memmap_pages(m, how), 8192);  // devdax1g-dev: in the device, counted
  m.altmap = false;
  m.range_start_pfn = 0x184000;  // 448 MiB, 64 MiB into its first section
  m.range_end_pfn = 0x1a0000;
  m.early_pages = 16384;
  m.vmemmap_shift = 0;
  EXPECT_EQ(expected_memmap_pages(m, how), 1536);
  m.vmemmap_shift = 9;
  EXPECT_EQ(expected_memmap_pages(m, how), 384);
  EXPECT_NE(how.find("98304 page(s) outside early sections"), std::string::npos) << how;
}

TEST(MemmapState, AMemmapCostOtherThanReckonedFails) {
  std::string text = state_text();
  const std::string range = "range 0x100000-0x180000 init 0x100000-0x180000\nmt";
  text.replace(text.find(range), range.size(),
               "struct_page 64 section_pages 32768\ndevice altmap 0 vmemmap_shift 9 "
               "early_pages 0\nrange 0x100000-0x180000 init 0x100000-0x180000\nmt");
  EXPECT_EQ(judge_state(parse_setup_state(text)).status, VerdictStatus::k_pass);
  text.replace(text.find("vmemmap_shift 9"), 15, "vmemmap_shift 0");
  const auto verdict = judge_state(parse_setup_state(text));
  EXPECT_EQ(verdict.status, VerdictStatus::k_fail);
  EXPECT_NE(verdict.summary.find("nr_memmap_pages +2048 bound, expected +8192"), std::string::npos)
      << verdict.summary;
}

TEST(MemmapState, AMalformedLineIsAnError) {
  EXPECT_THROW(parse_setup_state("setup x\nvmstat nr 1\n"), Error);
  EXPECT_THROW(parse_setup_state("setup x\nmoment before\nvmstat nr zz\n"), Error);
  EXPECT_THROW(parse_setup_state("moment before\n"), Error);
}

}  // namespace
}  // namespace kseries::oracle
