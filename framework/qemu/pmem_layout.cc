#include "qemu/pmem_layout.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"

namespace kseries::qemu {

namespace {

constexpr std::uint64_t k_mib = std::uint64_t{1} << 20;
constexpr std::uint64_t k_gib = std::uint64_t{1} << 30;
// A memory section on x86-64 (SECTION_SIZE_BITS 27).
constexpr std::uint64_t k_section = 128 * k_mib;
// The extra layouts' size: a whole number of 2 MiB devdax pages, and
// 64 MiB short of whole sections so that one end shares a section.
constexpr std::uint64_t k_shared_size = 448 * k_mib;

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

const std::vector<std::string>& pmem_layout_names() {
  static const std::vector<std::string> names{"aligned", "share-first", "share-last"};
  return names;
}

std::string setup_layout(const std::string& setup) {
  const auto at = setup.find('@');
  return at == std::string::npos ? "aligned" : setup.substr(at + 1);
}

std::string setup_without_layout(const std::string& setup) {
  return setup.substr(0, setup.find('@'));
}

std::vector<PmemRegion> pmem_regions(std::uint64_t offset, std::uint64_t size,
                                     const std::vector<std::string>& layouts) {
  std::vector<PmemRegion> regions{{"aligned", offset, size}};
  // The next 1 GiB boundary above the aligned region: room for both others.
  const std::uint64_t above = (offset + size + k_gib - 1) / k_gib * k_gib;
  for (const auto& layout : layouts) {
    const auto& names = pmem_layout_names();
    if (std::find(names.begin(), names.end(), layout) == names.end()) {
      throw usage_error("unknown pmem layout '" + layout +
                        "' (a setup's @LAYOUT: aligned, share-first or share-last)");
    }
    const bool listed = std::any_of(regions.begin(), regions.end(), [&](const PmemRegion& region) {
      return region.layout == layout;
    });
    if (listed) {
      continue;
    }
    if (layout == "share-first") {
      regions.push_back({layout, above + k_section / 2, k_shared_size});
    } else if (layout == "share-last") {
      regions.push_back({layout, above + k_gib, k_shared_size});
    }
  }
  return regions;
}

std::string layouts_cmdline(const std::vector<PmemRegion>& regions) {
  std::string text;
  for (const auto& region : regions) {
    text += (text.empty() ? "kseries.layouts=" : ",") + region.layout + ":" + hex(region.offset) +
            ":" + std::to_string(region.size / k_mib) + "M";
  }
  return text;
}

}  // namespace kseries::qemu
