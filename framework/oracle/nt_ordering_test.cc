#include "oracle/nt_ordering.h"

#include <gtest/gtest.h>

namespace kseries::oracle {
namespace {

guest::Event calls(const std::string& setup, int n) {
  guest::Event e;
  e.verb = "measure";
  e.fields = {{"setup", setup},           {"iter", "0"},
              {"metric", "memmap_calls"}, {"value", std::to_string(n)},
              {"unit", "count"},          {"kind", "calls"}};
  return e;
}

memcost::WindowOrder window(std::uint64_t nt, std::uint64_t fences,
                            std::vector<memcost::Hazard> hazards = {}) {
  memcost::WindowOrder w;
  w.nt_stores = nt;
  w.fences = fences;
  w.hazards = std::move(hazards);
  return w;
}

memcost::Records records(std::vector<memcost::WindowOrder> order) {
  memcost::Records r;
  r.header = true;
  r.order = std::move(order);
  return r;
}

const memcost::Symbolizer k_symbols(
    "ffffffff81200000 T memmap_init_zone_device\nffffffff81200400 t memmap_init_compound\n");

TEST(NtOrderingTest, OrderedStoresPassWithTheirCount) {
  const auto v =
      judge_nt_ordering({calls("boot-probe", 1), calls("fsdax-dev", 2)},
                        records({window(0, 0), window(100, 1), window(100, 1)}), k_symbols);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].setup, "boot-probe");
  EXPECT_EQ(v[0].status, VerdictStatus::k_skip);  // the probe: no NT store
  EXPECT_EQ(v[1].status, VerdictStatus::k_pass);
  EXPECT_NE(v[1].summary.find("200 non-temporal stores in 2 call(s)"), std::string::npos);
}

TEST(NtOrderingTest, NoNonTemporalStoreIsNotApplicableNeverAPass) {
  const auto v =
      judge_nt_ordering({calls("fsdax-dev", 2)}, records({window(0, 3), window(0, 0)}), k_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_skip);
  EXPECT_NE(v[0].summary.find("not applicable: no non-temporal stores in the window"),
            std::string::npos);
}

TEST(NtOrderingTest, AHazardFailsWithPcsAndPfn) {
  memcost::Hazard store{"store", 0xffffffff81200123, 0xffffffff81200410, 0xffffea0009008000, 4};
  memcost::Hazard ret{"return", 0xffffffff81200123, 0xffffffff81100000, 0xffffea0009000000, 9};
  const auto v =
      judge_nt_ordering({calls("devdax-mem", 2)},
                        records({window(10, 0, {store}), window(10, 0, {store, ret})}), k_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_fail);
  EXPECT_NE(v[0].details.find("an ordinary store at memmap_init_compound+0x10 to a line of the "
                              "non-temporal store at memmap_init_zone_device+0x123 before any "
                              "fence (8 time(s)), first at the struct page of pfn 0x240200 (+0x0)"),
            std::string::npos)
      << v[0].details;
  EXPECT_NE(v[0].details.find("returned"), std::string::npos);
  EXPECT_NE(v[0].summary.find("(and 1 more)"), std::string::npos);
}

const memcost::Symbolizer k_lock_symbols(
    "ffffffff81200000 T memmap_init_zone_device\nffffffff81200400 t memmap_init_compound\n"
    "ffffffff81300000 t pageblock_migratetype_init_range\n");

memcost::Hazard locked_return() {
  memcost::Hazard h{"locked-return", 0xffffffff81200123, 0xffffffff81100000, 0xffffea0009000000,
                    524288};
  h.lock_pc = 0xffffffff8130004a;
  return h;
}

TEST(NtOrderingTest, LinesOnlyACalleesLockOrderedPassWithAWarningNamingTheLock) {
  auto w = window(8388592, 0, {locked_return()});
  w.locks = 1024;
  const auto v = judge_nt_ordering({calls("fsdax-mem", 1)}, records({w}), k_lock_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_pass);
  // On the verdict line itself, with the lock's PC.
  EXPECT_NE(v[0].summary.find("WARNING: returned (to 0xffffffff81100000) with 524288 line(s) of "
                              "the non-temporal store at memmap_init_zone_device+0x123 ordered "
                              "only by the locked instruction at "
                              "pageblock_migratetype_init_range+0x4a, not by a fence the "
                              "function issues"),
            std::string::npos)
      << v[0].summary;
  EXPECT_NE(v[0].summary.find("0 fences, 1024 locked instructions"), std::string::npos);
}

TEST(NtOrderingTest, OnACoreWhoseLocksDoNotOrderNonTemporalStoresItFails) {
  auto r = records({window(8388592, 0, {locked_return()})});
  r.locked_orders_nt = false;
  const auto v = judge_nt_ordering({calls("fsdax-mem", 1)}, r, k_lock_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_fail);
  EXPECT_NE(v[0].summary.find("not drained: returned"), std::string::npos) << v[0].summary;
  EXPECT_NE(v[0].summary.find("pageblock_migratetype_init_range+0x4a"), std::string::npos);
  EXPECT_NE(v[0].details.find("locked-orders-nt: no"), std::string::npos);
}

// The plugin's frames say where the callee's lock was reached from: the
// call site in the window's own function (the set_pageblock_migratetype()
// call of the inlined pageblock_migratetype_init_range()), and the
// innermost call when it is another one.
TEST(NtOrderingTest, TheWarningNamesTheCallSiteThatLedToTheLock) {
  const memcost::Symbolizer symbols(
      "ffffffff811b70b0 T set_pfnblock_flags_mask\n"
      "ffffffff811b8f20 T set_pageblock_migratetype\n"
      "ffffffff81425d50 T memmap_init_zone_device\n"
      "ffffffff814262a0 T memremap_pages\n");
  memcost::Hazard h{"locked-return", 0xffffffff81425e10, 0xffffffff814265c1, 0xffffea0009000000,
                    1015806};
  h.lock_pc = 0xffffffff811b7132;
  h.sites_known = true;
  h.site = h.caller = 0xffffffff81425f5e;
  const auto v = judge_nt_ordering({calls("fsdax-mem", 1)}, records({window(10, 0, {h})}), symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_pass);
  EXPECT_NE(v[0].summary.find("ordered only by the locked instruction at "
                              "set_pfnblock_flags_mask+0x82 (called from "
                              "memmap_init_zone_device+0x20e), not by a fence the function issues"),
            std::string::npos)
      << v[0].summary;
  // Deeper: the innermost call too.
  h.caller = 0xffffffff811b8f51;
  EXPECT_NE(judge_nt_ordering({calls("fsdax-mem", 1)}, records({window(10, 0, {h})}), symbols)[0]
                .summary.find("(called from memmap_init_zone_device+0x20e, through "
                              "set_pageblock_migratetype+0x31)"),
            std::string::npos);
  // Deeper than the plugin follows: said, not guessed.
  h.caller = 0;
  EXPECT_NE(judge_nt_ordering({calls("fsdax-mem", 1)}, records({window(10, 0, {h})}), symbols)[0]
                .summary.find("(called from memmap_init_zone_device+0x20e, through calls deeper "
                              "than the plugin follows)"),
            std::string::npos);
  // The lock in the window's function itself, or an older record: no call site.
  h.site = 0;
  EXPECT_NE(judge_nt_ordering({calls("fsdax-mem", 1)}, records({window(10, 0, {h})}), symbols)[0]
                .summary.find("set_pfnblock_flags_mask+0x82, not by a fence"),
            std::string::npos);
  // The same lock from two call sites: two warnings, not one summed.
  memcost::Hazard other = h;
  other.site = other.caller = 0xffffffff81425f00;
  h.site = h.caller = 0xffffffff81425f5e;
  const auto two =
      judge_nt_ordering({calls("fsdax-mem", 1)}, records({window(10, 0, {h, other})}), symbols);
  EXPECT_NE(two[0].summary.find("(and 1 more)"), std::string::npos) << two[0].summary;
}

TEST(NtOrderingTest, AStoreAfterOnlyALockIsAWarningToo) {
  memcost::Hazard h{"locked-store", 0xffffffff81200123, 0xffffffff81200410, 0xffffea0009008000, 2};
  h.lock_pc = 0xffffffff8130004a;
  const auto v =
      judge_nt_ordering({calls("devdax-mem", 1)}, records({window(10, 0, {h})}), k_lock_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_pass);
  EXPECT_NE(v[0].summary.find("WARNING: an ordinary store at memmap_init_compound+0x10"),
            std::string::npos)
      << v[0].summary;
  // An unordered hazard beside it still fails.
  memcost::Hazard store{"store", 0xffffffff81200123, 0xffffffff81200410, 0xffffea0009008000, 1};
  EXPECT_EQ(judge_nt_ordering({calls("devdax-mem", 1)}, records({window(10, 0, {h, store})}),
                              k_lock_symbols)[0]
                .status,
            VerdictStatus::k_fail);
}

TEST(NtOrderingTest, WindowsThatDoNotAddUpCannotBeJudged) {
  const auto v =
      judge_nt_ordering({calls("fsdax-dev", 1)}, records({window(1, 1), window(1, 1)}), k_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_fail);
  EXPECT_NE(v[0].summary.find("cannot judge"), std::string::npos);
  const auto none = judge_nt_ordering({calls("fsdax-dev", 1)}, memcost::Records{}, k_symbols);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].status, VerdictStatus::k_fail);
}

TEST(NtOrderingTest, AnOverflowIsInconclusiveNotAPass) {
  auto w = window(5, 0);
  w.overflow = true;
  const auto v = judge_nt_ordering({calls("fsdax-dev", 1)}, records({w}), k_symbols);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::k_fail);
}

}  // namespace
}  // namespace kseries::oracle
