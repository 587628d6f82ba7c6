#pragma once
// The executed instruction addresses the memcost plugin's cover= mode
// writes (framework/memcost/cover.c): untrusted text from a guest run,
// parsed without trusting it.
//
//   kseries-cover version=1 min=0xffff800000000000
//   0xffffffff81234567 12
//   ...
//   end pcs=N
//
// one line per distinct executed instruction of the kernel half of the
// address space, ascending, with how often it ran (a lower bound under
// multi-threaded TCG: the plugin's counters are not atomic).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::coverage {

struct ExecutedPc {
  std::uint64_t pc = 0;
  std::uint64_t count = 0;
};

struct CoverFile {
  std::vector<ExecutedPc> pcs;  // ascending, distinct
  bool complete = false;        // the "end" line came and counted the pcs
};

// Throws Error(k_usage) "WHAT:LINE: why" for a missing or unknown header, a
// malformed line, addresses out of order, or more than `max_pcs` addresses.
// A file cut short (the guest killed before QEMU's atexit) has
// complete=false and the addresses that came.
CoverFile parse_cover_text(std::string_view text, const std::string& what,
                           std::size_t max_pcs = 1u << 26);

// Merges several runs (a cell's boots): union of the addresses, counts added.
std::vector<ExecutedPc> merge_executed(const std::vector<CoverFile>& files);

// How often code in [begin, end) ran: the largest count of an address of
// sorted PCS in it (0 when none ran).
std::uint64_t executions_in(const std::vector<ExecutedPc>& pcs, std::uint64_t begin,
                            std::uint64_t end);

}  // namespace kseries::coverage
