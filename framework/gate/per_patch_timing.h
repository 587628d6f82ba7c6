#pragma once
// Per-patch timing, as the series' cover letter reports it: every prefix of
// a series booted on its own (the kernel and boot caches reuse what is
// unchanged), each compared against the base and against the prefix before
// it, under the session's clock. The table names each patch's contribution
// with its interval.

#include <string>
#include <vector>

#include "cases/memmap_timing.h"

namespace kseries::gate {

struct PrefixTiming {
  std::string label;  // "base", "1/8 mm: fix stale ZONE_DEVICE refcount comment"
  cases::TimingData timing;
};

struct PerPatchTable {
  std::string metric;  // the one metric tabled (memmap_init_mns, _vns or _ns)
  std::string text;
  // Per setup, the tip against the base: "fsdax-dev -60.1 %".
  std::vector<std::string> tip_changes;
};

// PREFIXES[0] is the base, then prefix 1..n in order. The metric: the memory
// clock's memmap_init_mns if present, else memmap_init_vns, else _ns.
PerPatchTable render_per_patch_timing(const std::vector<PrefixTiming>& prefixes);

}  // namespace kseries::gate
