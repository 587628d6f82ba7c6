#pragma once
// The host verdict of testcases/hugetlb-tails: the struct pages of every
// HugeTLB folio the guest found (head, tails, and one neighbour on each
// side), dumped with memmap_dump.ko's dump_range, judged
//  - on one kernel: each tail links to its head (compound_head = head|1),
//    holds refcount 0, no PG_reserved, TAIL_MAPPING from tail 3 on, the
//    order and nr_pages in tail 1, and, under SECTION_IN_PAGE_FLAGS, the
//    section bits of its own PFN (a template copy that forgets to refresh
//    them shows at the first tail of the folio's second section); the
//    neighbours are not tails of the folio (a write past the end of the
//    folio, HugeTLB v2's empty-range bug, makes the next page one);
//  - against the base kernel: the same folios (count per size, head PFNs)
//    and every tail identical after normalisation. Heads are not compared:
//    their lru links point into the kernel's free lists, whose addresses
//    differ between two kernels.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "guest/protocol.h"
#include "oracle/equivalence.h"
#include "oracle/memmap_dump.h"

namespace kseries::oracle {

struct HugeFolio {
  std::string size;  // "1G", "2M": the verdict's setup
  int index = 0;     // among the folios of that size, by PFN
  uint64_t head_pfn = 0;
  unsigned order = 0;
  // [head - 1, head + 2^order + 1) (a neighbour that is no valid PFN left out),
  // the folio geometry in the header (init range, vmemmap_shift = order).
  MemmapDump dump;
};

struct HugetlbDumps {
  std::vector<HugeFolio> folios;
  // The folio the kernel's empty-range test hook ran on (the guest's
  // "empty_range_folio" measure), if the kernel has the hook and it ran.
  std::optional<uint64_t> empty_range_folio;
  std::map<std::string, std::string> errors;  // per size: blobs that failed
  // Every zone's zone->contiguous after boot (the guest's "zone_contiguous"
  // measures, zone=NAME): set_zone_contiguous() reads the first and last
  // struct page of every pageblock, so tails read before their init show.
  std::map<std::string, bool> zone_contiguous;
};

// Sets DUMP's header so that position_of() sees one compound page of
// 2^ORDER pages at HEAD_PFN (init range, vmemmap_shift).
void set_folio_geometry(MemmapDump& dump, uint64_t head_pfn, unsigned order);

// The pages of DUMP in [START, END), as a dump of its own.
MemmapDump slice_dump(const MemmapDump& dump, uint64_t start, uint64_t end);

// Reads the "huge-<size>-<index>" blobs the events announce.
HugetlbDumps collect_hugetlb_dumps(const std::vector<guest::Event>& events,
                                   const std::filesystem::path& disk_image);

// One verdict per size on one kernel.
std::vector<SetupVerdict> judge_hugetlb_tails(const HugetlbDumps& dumps);

// One verdict per size: the series kernel's folios against the base's.
std::vector<SetupVerdict> judge_hugetlb_vs_base(const HugetlbDumps& base,
                                                const HugetlbDumps& series);

}  // namespace kseries::oracle
