#pragma once
// The memory clock on the host: the memcost plugin's windows (one per call
// of memmap_init_zone_device(), in call order) matched to the guest's own
// per-bind samples, and turned into modelled time.
//
// The guest says how many calls each measured bind made (memmap_init_ns,
// calls=N, default 1; a boot-time probe line is one call), so the windows
// are handed out in order; a count that does not add up is a problem of
// the boot, never a silent shift of samples.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "guest/protocol.h"
#include "memcost/profile.h"
#include "memcost/record.h"

namespace kseries::cases {

// One model of the boot: its plugin label and its profile. The first is
// the clock's (metric memmap_init_mns), the others a sweep
// (memmap_init_mns_LABEL).
struct MemoryModel {
  std::string label;
  memcost::MachineProfile profile;
};

// What one setup's rebinds cost under the clock's model, summed over the
// rebinds (the first bind and the boot-time probe apart): the figures behind
// memmap_init_mns, for the report and for calibrating a profile
// (ci/calibrate-memory).
struct Traffic {
  std::uint64_t rebinds = 0, windows = 0;
  std::uint64_t insns = 0, dram_read = 0, dram_write = 0, nt_stores = 0;
};
using TrafficData = std::map<std::string, Traffic>;  // per setup

struct MemoryCosts {
  std::vector<guest::Measurement> added;  // unit "mns"
  std::vector<std::string> problems;      // the boot fails with these
  // Per window of the first model, which (setup, iter) it belongs to.
  std::vector<std::pair<std::string, int>> owners;
  TrafficData traffic;  // the first model's
};

// MEASUREMENTS are the guest's, before clock labelling (memmap_init_ns, ms).
MemoryCosts memory_costs(const std::vector<guest::Measurement>& measurements,
                         const memcost::Records& records, const std::vector<MemoryModel>& models);

// Adds one boot's traffic to a kernel's (its boots pooled).
void add_traffic(TrafficData& into, const TrafficData& boot);

// "memory traffic per rebind, KERNEL:" and one line per setup: instructions,
// DRAM bytes read and written, non-temporal stores, and the model's two
// terms (compute, memory) under PROFILE, so a reader sees which one bound
// the modelled time and why it moved.
std::string render_traffic_table(const std::string& kernel, const TrafficData& traffic,
                                 const memcost::MachineProfile& profile);

}  // namespace kseries::cases
