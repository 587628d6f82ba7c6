#pragma once
// The memory clock on the host: the memcost plugin's windows (one per call
// of memmap_init_zone_device(), in call order) matched to the guest's own
// per-bind samples, and turned into modelled time.
//
// The guest says how many calls each measured bind made (memmap_init_ns,
// calls=N, default 1; a boot-time probe line is one call), so the windows
// are handed out in order; a count that does not add up is a problem of
// the boot, never a silent shift of samples.

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

struct MemoryCosts {
  std::vector<guest::Measurement> added;  // unit "mns"
  std::vector<std::string> problems;      // the boot fails with these
  // Per window of the first model, which (setup, iter) it belongs to.
  std::vector<std::pair<std::string, int>> owners;
};

// MEASUREMENTS are the guest's, before clock labelling (memmap_init_ns, ms).
MemoryCosts memory_costs(const std::vector<guest::Measurement>& measurements,
                         const memcost::Records& records, const std::vector<MemoryModel>& models);

}  // namespace kseries::cases
