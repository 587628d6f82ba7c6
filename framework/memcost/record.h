#pragma once
// The memcost plugin's output (plugin.c): one "window" line per call of the
// measured function and model, an "order" line and its "hazard" lines per
// call. Read back on the host, bounded: the file is written by a plugin fed
// by a guest running code from the list.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kseries::memcost {

struct WindowCost {
  std::uint64_t seq = 0;
  unsigned vcpu = 0;
  std::string model;
  std::uint64_t insns = 0, loads = 0, stores = 0, nt_stores = 0, fences = 0;
  std::uint64_t l1_miss = 0, l2_miss = 0, llc_miss = 0;
  std::uint64_t dram_read = 0, dram_write = 0, wc_full = 0, wc_partial = 0;
  std::uint64_t irqs = 0, irq_insns = 0, irq_dram_read = 0, irq_dram_write = 0;
  std::uint64_t switches = 0;
};

struct Hazard {
  // store, load, return; locked-store, locked-load, locked-return: the same
  // for lines that no fence but a locked instruction (lock_pc) ordered.
  std::string kind;
  std::uint64_t nt_pc = 0, pc = 0, vaddr = 0, count = 0;
  std::uint64_t lock_pc = 0;  // locked-*: the locked instruction (0: not known)
  // locked-*: where the lock was reached from inside the window (the
  // plugin's frames, memcost/frames.h): the call site in the window's own
  // function and the innermost call, each 0 when the lock runs in the
  // function itself (caller alone: deeper than the plugin follows).
  // sites_known: the record says (site=); records from before it do not.
  std::uint64_t site = 0, caller = 0;
  bool sites_known = false;
};

struct WindowOrder {
  std::uint64_t seq = 0;
  std::uint64_t nt_stores = 0, fences = 0, locks = 0, dropped = 0;
  bool overflow = false;
  std::vector<Hazard> hazards;
};

struct Records {
  bool header = false;  // the plugin started ("memcost version=1 ...")
  // The header's locked_nt: whether the modelled core's locked instructions
  // order earlier non-temporal stores (the profile's locked-orders-nt).
  // Records of a plugin from before the word say nothing: ordered.
  bool locked_orders_nt = true;
  bool ended = false;  // QEMU exited through the plugin's atexit ("end windows=N")
  std::uint64_t windows_seen = 0;
  // Per model, the windows in call order.
  std::map<std::string, std::vector<WindowCost>> windows;
  std::vector<WindowOrder> order;     // per call, in order
  std::vector<std::string> problems;  // lines that could not be read
};

// At most k_max_windows windows per model are kept; more is a problem.
constexpr std::size_t k_max_windows = 100000;

Records parse_records(const std::string& text);

}  // namespace kseries::memcost
