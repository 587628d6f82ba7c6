#include "memcost/symbols.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::memcost {

namespace {

bool is_irq_entry(const std::string& name) {
  return starts_with(name, "asm_exc_") || starts_with(name, "asm_sysvec_") ||
         name == "asm_common_interrupt" || name == "asm_spurious_interrupt";
}

}  // namespace

KernelSymbols read_symbols(const std::string& system_map, const std::string& function,
                           const std::string& file) {
  KernelSymbols s;
  for (const auto line : split_lines(system_map)) {
    const auto words = split_words(line);
    if (words.size() != 3 || words[0].size() != 16) {
      continue;
    }
    const std::uint64_t addr = std::strtoull(words[0].c_str(), nullptr, 16);
    const std::string& name = words[2];
    if (name == function && (words[1] == "T" || words[1] == "t")) {
      s.entry = addr;
    } else if (name == "__switch_to_asm") {
      s.switch_to = addr;
    } else if ((words[1] == "T" || words[1] == "t") && is_irq_entry(name)) {
      s.irq_entries.push_back(addr);
    }
  }
  if (s.entry == 0) {
    throw infra_error(file + ": no text symbol " + function +
                      " (inlined, or not an x86_64 kernel with CONFIG_ZONE_DEVICE?)");
  }
  return s;
}

KernelSymbols load_symbols(const std::filesystem::path& system_map, const std::string& function) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(system_map, ec) ||
      std::filesystem::file_size(system_map, ec) > (256u << 20)) {
    throw infra_error(system_map.string() + ": no System.map of at most 256 MiB");
  }
  return read_symbols(read_file(system_map), function, system_map.string());
}

}  // namespace kseries::memcost

namespace kseries::memcost {

Symbolizer::Symbolizer(const std::string& system_map) {
  for (const auto line : split_lines(system_map)) {
    const auto words = split_words(line);
    if (words.size() == 3 && words[0].size() == 16 &&
        (words[1] == "T" || words[1] == "t" || words[1] == "W" || words[1] == "w")) {
      m_symbols.emplace_back(std::strtoull(words[0].c_str(), nullptr, 16), words[2]);
    }
  }
  std::sort(m_symbols.begin(), m_symbols.end());
}

Symbolizer Symbolizer::load(const std::filesystem::path& system_map) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(system_map, ec) ||
      std::filesystem::file_size(system_map, ec) > (256u << 20)) {
    return {};
  }
  return Symbolizer(read_file(system_map));
}

std::string Symbolizer::describe(std::uint64_t pc) const {
  char text[48];
  auto it = std::upper_bound(m_symbols.begin(), m_symbols.end(), pc,
                             [](std::uint64_t a, const auto& s) { return a < s.first; });
  if (it == m_symbols.begin() || pc - std::prev(it)->first > (1u << 20)) {
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(pc));
    return text;
  }
  --it;
  std::snprintf(text, sizeof text, "+0x%llx", static_cast<unsigned long long>(pc - it->first));
  return it->second + text;
}

std::string struct_page_of(std::uint64_t vaddr, unsigned page_size) {
  constexpr std::uint64_t k_vmemmap = 0xffffea0000000000ull;
  if (vaddr < k_vmemmap || vaddr >= k_vmemmap + (1ull << 40) || page_size == 0) {
    return "";
  }
  char text[64];
  const std::uint64_t offset = vaddr - k_vmemmap;
  std::snprintf(text, sizeof text, "pfn 0x%llx (+0x%llx)",
                static_cast<unsigned long long>(offset / page_size),
                static_cast<unsigned long long>(offset % page_size));
  return text;
}

}  // namespace kseries::memcost
