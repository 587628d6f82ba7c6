#pragma once
// Where a PFN sits in the device's compound geometry (head, tail N, order-0
// page, or outside memmap_init_zone_device()'s range) and which named
// struct page / folio fields cover which bytes of its struct page, taken
// from the offsets in the dump header.

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/memmap_dump.h"

namespace kseries::oracle {

enum class PageRole {
  k_outside,  // in the dump but not initialised by memmap_init_zone_device()
  k_single,   // order-0 ZONE_DEVICE page (vmemmap_shift 0)
  k_head,
  k_tail_1,  // holds _flags_1, _folio_nr_pages, the large mapcounts
  k_tail_2,  // holds _deferred_list
  k_tail,    // tail 3 and on
};
std::string_view role_name(PageRole role);

struct PagePosition {
  PageRole role = PageRole::k_outside;
  uint64_t head_pfn = 0;  // the compound head (the page itself unless a tail)
  uint64_t index = 0;     // tail index within the compound page (0: head)

  bool is_tail() const { return index > 0; }
  // "head", "tail 1", "tail 37", "order-0", "outside init range".
  std::string describe() const;
};

// The position of PFN under memmap_init_zone_device()'s geometry: compound
// pages of 2^vmemmap_shift PFNs from init_start_pfn on.
PagePosition position_of(const DumpHeader& header, uint64_t pfn);

struct Field {
  std::string name;
  size_t offset = 0;
  size_t size = 0;
};

// The named fields of a struct page in ROLE, sorted by offset, covering
// every byte (bytes no named field covers appear as "padding+N"). Tail 1
// and tail 2 use the folio's names for the bytes the folio overlays.
std::vector<Field> fields_for(const DumpHeader& header, PageRole role);

// The field covering byte OFFSET of a page in ROLE ("?" if none).
std::string field_at(const DumpHeader& header, PageRole role, size_t offset);

}  // namespace kseries::oracle
