// Fuzzes what the memory clock reads back from a boot: the memcost plugin's
// records (written by a plugin fed by a guest running code from the list),
// matched to the guest's own protocol lines (memory_costs, the nt-ordering
// oracle), and a machine profile file (--memory-profile FILE: a user's).
// The first half of the input is the records, the rest the protocol; the
// whole input is also read as a profile, and a profile that parses must
// hold only figures in the ranges the reader promises (profile.h), whatever
// the text (a "-1" once parsed as 2^64 - 1).
#include <cmath>

#include "cases/memory_clock.h"
#include "core/error.h"
#include "fuzz_input.h"
#include "guest/protocol.h"
#include "memcost/profile.h"
#include "memcost/record.h"
#include "oracle/nt_ordering.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  const std::string records_text(text.substr(0, text.size() / 2));
  const auto records = kseries::memcost::parse_records(records_text);
  for (const auto& [model, windows] : records.windows) {
    kseries::fuzz::require(windows.size() <= kseries::memcost::k_max_windows);
    kseries::fuzz::require(!model.empty());
  }
  const auto events = kseries::guest::parse_protocol(text.substr(text.size() / 2));
  kseries::memcost::MachineProfile profile;
  profile.name = "fuzz";
  profile.ipc = 1;
  profile.frequency_ghz = 1;
  profile.read_gbps = profile.write_gbps = 1;
  const std::string label = records.windows.empty() ? "m" : records.windows.begin()->first;
  const auto costs = kseries::cases::memory_costs(kseries::guest::measurements(events), records,
                                                  {{label, profile}});
  kseries::fuzz::require(costs.owners.size() <= kseries::memcost::k_max_windows);
  kseries::oracle::judge_nt_ordering(events, records, kseries::memcost::Symbolizer(records_text));
  try {
    const auto p = kseries::memcost::parse_profile(std::string(text), "fuzz.machine");
    using kseries::fuzz::require;
    for (const auto& level : {p.l1d, p.l2, p.llc}) {
      require(level.bytes >= 64ull * level.ways && level.bytes <= (1ull << 34));
      require(level.ways >= 1 && level.ways <= 64);
    }
    require(p.wc_buffers >= 1 && p.wc_buffers <= 32);
    for (const double figure : {p.frequency_ghz, p.ipc, p.read_gbps, p.write_gbps}) {
      require(std::isfinite(figure) && figure > 0 && figure <= 1e6);
    }
    require(p.serial >= 0 && p.serial <= 1);
    require(p.seed_memmap_bytes >= 1 && p.seed_memmap_bytes <= (1ull << 50));
    // What a session then does with it: scale to any namespace, cost a window.
    const auto scaled = kseries::memcost::scaled_to(p, 1 + size % (1ull << 40));
    for (const auto& level : {scaled.l1d, scaled.l2, scaled.llc}) {
      require(level.bytes >= 64ull * level.ways);
    }
    kseries::memcost::WindowCost w;
    w.insns = w.dram_read = w.dram_write = size;
    require(std::isfinite(kseries::memcost::modelled_ns(p, w)));
    kseries::memcost::MemoryClockSettings settings;
    settings.profile = p;
    require(kseries::memcost::settings_key(settings) == kseries::memcost::settings_key(settings));
  } catch (const kseries::Error&) {
  }
  return 0;
}
