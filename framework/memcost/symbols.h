#pragma once
// What the memcost plugin needs from a built kernel's System.map: the
// measured function's address, __switch_to_asm, and the IDT entry points
// (asm_exc_*, asm_sysvec_*, asm_common_interrupt, asm_spurious_interrupt)
// at which an interrupt taken inside a window begins.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kseries::memcost {

struct KernelSymbols {
  std::uint64_t entry = 0;      // the function
  std::uint64_t switch_to = 0;  // __switch_to_asm (0: not found)
  std::vector<std::uint64_t> irq_entries;
};

// Error(k_infrastructure) naming the file when FUNCTION is not in it.
KernelSymbols read_symbols(const std::string& system_map, const std::string& function,
                           const std::string& file);
KernelSymbols load_symbols(const std::filesystem::path& system_map, const std::string& function);

}  // namespace kseries::memcost
