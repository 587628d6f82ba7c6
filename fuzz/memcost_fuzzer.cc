// Fuzzes what the memory clock reads back from a boot: the memcost plugin's
// records (written by a plugin fed by a guest running code from the list),
// matched to the guest's own protocol lines (memory_costs, the nt-ordering
// oracle), and a machine profile file. The first half of the input is the
// records, the rest the protocol.
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
    kseries::memcost::parse_profile(records_text, "fuzz.machine");
  } catch (const kseries::Error&) {
  }
  return 0;
}
