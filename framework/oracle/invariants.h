#pragma once
// Checks on one memmap dump against what 6.12's memmap_init_zone_device()
// writes (mm/mm_init.c __init_zone_device_page, memmap_init_compound,
// prep_compound_head/tail): no page left with the module's poison, zone
// and (under SECTION_IN_PAGE_FLAGS) section bits that match the PFN,
// page->virtual equal to the direct map address, PG_reserved, PG_head on
// heads only, tail -> head links, order and nr_pages in tail 1, refcount
// per pgmap type, tail 2's _deferred_list as 6.12 leaves it.

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/memmap_dump.h"
#include "oracle/page_layout.h"

namespace kseries::oracle {

struct InvariantViolation {
  std::string rule;   // "refcount", "poison", "tail->head", ...
  std::string field;  // the struct page / folio field
  PageRole role = PageRole::k_outside;
  std::string first_detail;  // what the first offending page holds vs what it should
  uint64_t count = 0;
  uint64_t first_pfn = 0;
  std::string first_position;
  std::vector<uint64_t> sample_pfns;
};

struct InvariantReport {
  static constexpr size_t k_samples = 8;
  std::vector<InvariantViolation> violations;  // largest count first
  uint64_t pages_checked = 0;
  std::vector<std::string> notes;  // e.g. the PFN the module left unwritten on purpose

  bool ok() const { return violations.empty(); }
};

// Checks every PFN of the dump inside memmap_init_zone_device()'s range.
InvariantReport check_invariants(const MemmapDump& dump);

std::string format_invariants(const InvariantReport& report, size_t max_violations = 20);

}  // namespace kseries::oracle
