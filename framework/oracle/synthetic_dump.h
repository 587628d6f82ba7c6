#pragma once
// Memmap dumps generated in memory, laid out and filled the way 6.12's
// memmap_init_zone_device() fills an x86-64 struct page (64 bytes, no
// MEMCG, by default): the reference the oracle's unit tests corrupt on
// purpose. The options add the fields past the first 56 bytes in 6.12's
// order (memcg_data, virtual, _last_cpupid, kmsan_shadow/kmsan_origin),
// aligned as the kernel aligns struct page (16 bytes): 64, 80 or 96 bytes.

#include <cstdint>

#include "oracle/memmap_dump.h"

namespace kseries::oracle {

struct SyntheticSpec {
  uint64_t init_start_pfn = 0x100000;
  uint64_t nr_pages = 4 * 512;
  uint64_t vmemmap_shift = 9;  // 0: order-0 pages (fsdax)
  PgmapType type = PgmapType::k_generic;
  uint64_t pgmap_addr = 0xffff888180648000ULL;
  uint64_t prefix_pages = 0;  // pages before init_start_pfn, as memmap_init_range() leaves them
  bool poisoned = true;       // the module poisoned the range before the init
  bool section_in_page_flags = false;
  bool want_page_virtual = false;  // adds `virtual` (in the 8 bytes after _refcount without MEMCG)
  bool memcg = false;              // CONFIG_MEMCG: memcg_data at 0x38
  // LAST_CPUPID_NOT_IN_PAGE_FLAGS: an int _last_cpupid (with memcg: 80 bytes,
  // 12 of them padding after it), set to k_synthetic_last_cpupid by the init.
  bool last_cpupid = false;
  bool kmsan = false;  // CONFIG_KMSAN: kmsan_shadow, kmsan_origin (NULL for device pages)
};

// -1 & LAST_CPUPID_MASK with LAST_CPUPID_SHIFT 21 (8 + NR_CPUS_BITS 13):
// what page_cpupid_reset_last() stores.
inline constexpr uint32_t k_synthetic_last_cpupid = (1U << 21) - 1;

// sizeof(struct page) for SPEC's fields (64, 80 or 96 on x86-64).
uint64_t synthetic_page_size(const SyntheticSpec& spec);

// A dump as the module would write it after a correct 6.12 bind.
MemmapDump make_synthetic_dump(const SyntheticSpec& spec);

// The struct page bytes 6.12 writes for PFN (as in make_synthetic_dump).
std::string synthetic_page(const DumpHeader& header, uint64_t pfn);

}  // namespace kseries::oracle
