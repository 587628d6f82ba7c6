#include "cases/memory_clock.h"

#include <gtest/gtest.h>

namespace kseries::cases {
namespace {

memcost::MachineProfile profile() {
  memcost::MachineProfile p;
  p.name = "m";
  p.ipc = 1;
  p.frequency_ghz = 1;  // 1 instruction = 1 ns
  p.read_gbps = p.write_gbps = 1000;
  return p;
}

memcost::Records records(std::size_t windows) {
  memcost::Records r;
  r.header = true;
  for (std::size_t i = 0; i < windows; ++i) {
    memcost::WindowCost w;
    w.seq = i + 1;
    w.model = "m";
    w.insns = 100 * (i + 1);
    r.windows["m"].push_back(w);
  }
  return r;
}

guest::Measurement m(std::string setup, int iter, std::string metric, std::string kind,
                     std::map<std::string, std::string> extra = {}) {
  return {std::move(setup), iter, std::move(metric), 1, "ns", std::move(kind), std::move(extra)};
}

TEST(MemoryClockTest, WindowsAreHandedOutInCallOrder) {
  const std::vector<guest::Measurement> guest = {
      m("boot-probe", 0, "memmap_init_ms", "probe"),
      m("fsdax-dev", 1, "bind_ns", "first"),
      m("fsdax-dev", 1, "memmap_init_ns", "first", {{"calls", "2"}}),
      m("fsdax-dev", 2, "memmap_init_ns", "rebind"),
  };
  const auto costs = memory_costs(guest, records(4), {{"m", profile()}});
  EXPECT_TRUE(costs.problems.empty());
  ASSERT_EQ(costs.added.size(), 3u);
  EXPECT_EQ(costs.added[0].setup, "boot-probe");
  EXPECT_DOUBLE_EQ(costs.added[0].value, 100);
  EXPECT_EQ(costs.added[1].metric, "memmap_init_mns");
  EXPECT_EQ(costs.added[1].unit, "mns");
  EXPECT_DOUBLE_EQ(costs.added[1].value, 200 + 300);  // two calls, one bind
  EXPECT_DOUBLE_EQ(costs.added[2].value, 400);
  EXPECT_EQ(costs.added[2].kind, "rebind");
  ASSERT_EQ(costs.owners.size(), 4u);
  EXPECT_EQ(costs.owners[2], std::make_pair(std::string("fsdax-dev"), 1));
}

TEST(MemoryClockTest, CountsThatDoNotAddUpAreProblems) {
  const std::vector<guest::Measurement> guest = {m("fsdax-dev", 1, "memmap_init_ns", "first"),
                                                 m("fsdax-dev", 2, "memmap_init_ns", "rebind")};
  EXPECT_FALSE(memory_costs(guest, records(3), {{"m", profile()}}).problems.empty());  // extra
  EXPECT_FALSE(memory_costs(guest, records(1), {{"m", profile()}}).problems.empty());  // short
  memcost::Records none;
  EXPECT_FALSE(memory_costs(guest, none, {{"m", profile()}}).problems.empty());  // no plugin
  EXPECT_TRUE(memory_costs(guest, records(2), {{"m", profile()}}).problems.empty());
}

TEST(MemoryClockTest, ASweepModelGetsAMetricOfItsOwn) {
  auto r = records(1);
  auto w = r.windows["m"][0];
  w.model = "llc8192k";
  w.insns = 7;
  r.windows["llc8192k"].push_back(w);
  const auto costs = memory_costs({m("a", 1, "memmap_init_ns", "first")}, r,
                                  {{"m", profile()}, {"llc8192k", profile()}});
  ASSERT_EQ(costs.added.size(), 2u);
  EXPECT_EQ(costs.added[1].metric, "memmap_init_mns_llc8192k");
  EXPECT_DOUBLE_EQ(costs.added[1].value, 7);
}

TEST(MemoryClockTest, TheRebindsTrafficIsSummedPerSetupWithoutTheFirstBind) {
  auto r = records(5);
  for (std::size_t i = 0; i < 5; ++i) {
    r.windows["m"][i].dram_read = 1000 * (i + 1);
    r.windows["m"][i].dram_write = 64;
    r.windows["m"][i].nt_stores = i;
  }
  const std::vector<guest::Measurement> guest = {
      m("boot-probe", 0, "memmap_init_ms", "probe"),                    // window 1
      m("fsdax-dev", 1, "memmap_init_ns", "first"),                     // window 2
      m("fsdax-dev", 2, "memmap_init_ns", "rebind", {{"calls", "2"}}),  // windows 3, 4
      m("devdax-dev", 2, "memmap_init_ns", "rebind"),                   // window 5
  };
  const auto costs = memory_costs(guest, r, {{"m", profile()}});
  ASSERT_TRUE(costs.problems.empty());
  ASSERT_EQ(costs.traffic.size(), 2u);
  const auto& fsdax = costs.traffic.at("fsdax-dev");
  EXPECT_EQ(fsdax.rebinds, 1u);
  EXPECT_EQ(fsdax.windows, 2u);
  EXPECT_EQ(fsdax.insns, 300u + 400u);
  EXPECT_EQ(fsdax.dram_read, 3000u + 4000u);
  EXPECT_EQ(fsdax.dram_write, 128u);
  EXPECT_EQ(fsdax.nt_stores, 2u + 3u);
  EXPECT_EQ(costs.traffic.at("devdax-dev").insns, 500u);

  TrafficData pooled;
  add_traffic(pooled, costs.traffic);
  add_traffic(pooled, costs.traffic);
  EXPECT_EQ(pooled.at("fsdax-dev").rebinds, 2u);
  EXPECT_EQ(pooled.at("fsdax-dev").dram_read, 14000u);
  // Means per rebind, and which term bound the modelled time.
  auto p = profile();
  p.name = "m";
  const std::string table = render_traffic_table("base", pooled, p);
  EXPECT_NE(table.find("memory traffic per rebind, base"), std::string::npos) << table;
  EXPECT_NE(table.find("fsdax-dev"), std::string::npos);
  EXPECT_NE(table.find("0.007 MB"), std::string::npos) << table;  // 7000 B read per rebind
  EXPECT_NE(table.find("compute"), std::string::npos);
}

}  // namespace
}  // namespace kseries::cases
