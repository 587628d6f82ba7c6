#pragma once
// Memmap dumps generated in memory, laid out and filled the way 6.12's
// memmap_init_zone_device() fills an x86-64 struct page (64 bytes, no
// MEMCG): the reference the oracle's unit tests corrupt on purpose.

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
  bool want_page_virtual = false;  // adds `virtual` (struct page grows to 72 -> 80 bytes)
};

// A dump as the module would write it after a correct 6.12 bind.
MemmapDump make_synthetic_dump(const SyntheticSpec& spec);

// The struct page bytes 6.12 writes for PFN (as in make_synthetic_dump).
std::string synthetic_page(const DumpHeader& header, uint64_t pfn);

}  // namespace kseries::oracle
