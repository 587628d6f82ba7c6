#pragma once
// A machine profile for the memory-cost clock (kernel-configs/machines/
// NAME.machine): the caches of one core, its write-combining buffers, and
// the figures that turn a window's instructions and DRAM bytes into time.
// Every figure comes with its source in the file.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "memcost/record.h"

namespace kseries::memcost {

struct CacheLevel {
  std::uint64_t bytes = 0;
  unsigned ways = 0;
};

struct MachineProfile {
  std::string name;
  CacheLevel l1d, l2, llc;
  unsigned wc_buffers = 0;
  double frequency_ghz = 0;
  double ipc = 0;
  double read_gbps = 0, write_gbps = 0;
  // The share of the shorter of compute and memory time that the longer does
  // not hide: 0 = a throughput bound (they overlap fully), 1 = their sum.
  double serial = 0;
  // Whether a locked instruction orders the core's earlier non-temporal
  // stores (and writes out its write-combining buffers), as its vendor's
  // manual says ("locked-orders-nt: yes|no"; yes when the file says
  // nothing: the x86-64 vendors' manuals both say so). The nt-ordering
  // case warns about lines only a lock ordered, or fails on them when no.
  bool locked_orders_nt = true;
  std::uint64_t seed_memmap_bytes = 0;  // what "scaled" keeps the caches' ratio to
  double scale = 1;                     // applied by scaled_to(): 1 = the real sizes
};

// What a run asks of the memory clock: the profile (scaled to the
// namespace unless unscaled), and last-level cache sizes to sweep in the
// same boots.
struct MemoryClockSettings {
  std::optional<MachineProfile> profile;
  bool unscaled = false;
  std::vector<std::uint64_t> llc_sweep;
};

// Parses a .machine file; Error(k_usage) "FILE:LINE: ..." on any mistake: an
// unknown or repeated key, a figure out of its range (whole numbers are
// digits only: no sign, so "-1" is not 2^64 - 1; decimals are digits and a
// point: no exponent, inf or nan).
MachineProfile parse_profile(const std::string& text, const std::string& file);

// NAME (a bundled profile in DIR, "NAME.machine") or a path to a file.
MachineProfile load_profile(const std::string& name_or_path, const std::filesystem::path& dir);

// Every cache divided by seed_memmap_bytes / MEMMAP_BYTES (at least one set
// of each level), so a small namespace's memmap overflows the caches as the
// seeds' 100 GB did. Unchanged when the memmap is as large as the seeds'.
MachineProfile scaled_to(const MachineProfile& profile, std::uint64_t memmap_bytes);

// The profile with its last-level cache set to BYTES (a sweep).
MachineProfile with_llc(const MachineProfile& profile, std::uint64_t bytes);

// The plugin's "model=NAME:L1:W:L2:W:LLC:W:WC" argument.
std::string plugin_model(const MachineProfile& profile, const std::string& label);

// The modelled time of one window, in ns: with compute = instructions /
// (ipc * GHz) and memory = read / read GB/s + write / write GB/s,
//   max(compute, memory) + serial * min(compute, memory).
double modelled_ns(const MachineProfile& profile, const WindowCost& window);

// The two terms of modelled_ns(), in ns.
struct ModelTerms {
  double compute = 0, memory = 0;
};
ModelTerms model_terms(const MachineProfile& profile, const WindowCost& window);

// Every figure of SETTINGS a modelled time depends on, as text: what a
// gate's --resume compares before it reuses a memory-clock cell.
std::string settings_key(const MemoryClockSettings& settings);

// One line: "icelake-sp scaled 1/50 (L1D 960 B, L2 25.6 KiB, LLC 1.2 MiB, 12 WC)".
std::string describe(const MachineProfile& profile);

}  // namespace kseries::memcost
