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

}  // namespace
}  // namespace kseries::cases
