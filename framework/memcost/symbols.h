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

namespace kseries::memcost {

// PCs as "function+0xoffset" from System.map's text symbols.
class Symbolizer {
 public:
  Symbolizer() = default;
  explicit Symbolizer(const std::string& system_map);
  static Symbolizer load(const std::filesystem::path& system_map);  // empty if unreadable
  std::string describe(std::uint64_t pc) const;                     // "0x..." if unknown

 private:
  std::vector<std::pair<std::uint64_t, std::string>> m_symbols;  // sorted by address
};

// The PFN whose struct page holds VADDR, for x86_64's vmemmap without
// CONFIG_RANDOMIZE_MEMORY (0xffffea0000000000, 64-byte struct pages):
// "pfn 0x240200 (+0x8)", or "" outside the vmemmap.
std::string struct_page_of(std::uint64_t vaddr, unsigned page_size = 64);

}  // namespace kseries::memcost
