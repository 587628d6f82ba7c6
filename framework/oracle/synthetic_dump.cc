#include "oracle/synthetic_dump.h"

#include <cstring>

#include "oracle/normalise.h"
#include "oracle/page_layout.h"

namespace kseries::oracle {

namespace {

// x86-64 TAIL_MAPPING: 0x400 + POISON_POINTER_DELTA.
constexpr uint64_t k_x86_tail_mapping = 0xdead000000000400ULL;

void put(std::string& page, uint64_t at, uint64_t value, size_t size) {
  std::memcpy(page.data() + at, &value, size);
}

// The offsets of the optional fields after _refcount, and the size.
struct TailLayout {
  uint64_t memcg_data = k_absent, virtual_ = k_absent, last_cpupid = k_absent;
  uint64_t kmsan_shadow = k_absent, kmsan_origin = k_absent;
  uint64_t size = 0;
};

TailLayout tail_layout(const SyntheticSpec& spec) {
  TailLayout l;
  uint64_t at = 0x38;  // after _refcount
  if (spec.memcg) {
    l.memcg_data = at;
    at += 8;
  }
  if (spec.want_page_virtual) {
    l.virtual_ = at;
    at += 8;
  }
  if (spec.last_cpupid) {
    l.last_cpupid = at;
    at += 4;
  }
  if (spec.kmsan) {
    at = (at + 7) & ~7ULL;  // pointers
    l.kmsan_shadow = at;
    l.kmsan_origin = at + 8;
    at += 16;
  }
  l.size = (at + 15) & ~15ULL;  // _struct_page_alignment: 2 * sizeof(long)
  return l;
}

DumpHeader synthetic_header(const SyntheticSpec& spec) {
  DumpHeader h;
  const TailLayout tail = tail_layout(spec);
  const std::pair<Word, uint64_t> words[] = {
      // Offsets as 6.12 x86-64 without MEMCG (taken from a real dump).
      {Word::k_sizeof_page, tail.size},
      {Word::k_off_flags, 0},
      {Word::k_off_compound_head, 8},
      {Word::k_off_lru, 8},
      {Word::k_off_mapping, 0x18},
      {Word::k_off_index, 0x20},
      {Word::k_off_private, 0x28},
      {Word::k_off_mapcount, 0x30},
      {Word::k_off_refcount, 0x34},
      {Word::k_off_pgmap, 8},
      {Word::k_off_zone_device_data, 0x10},
      {Word::k_off_flags_1, 0},
      {Word::k_off_head_1, 8},
      {Word::k_off_large_mapcount, 0x10},
      {Word::k_off_entire_mapcount, 0x14},
      {Word::k_off_nr_pages_mapped, 0x18},
      {Word::k_off_pincount, 0x1c},
      {Word::k_off_folio_nr_pages, 0x20},
      {Word::k_off_flags_2, 0},
      {Word::k_off_head_2, 8},
      {Word::k_off_deferred_list, 0x10},
      {Word::k_vmemmap_base, 0xffffea0000000000ULL},
      {Word::k_direct_map_base, 0xffff888000000000ULL},
      {Word::k_page_shift, 12},
      {Word::k_section_size_bits, 27},
      {Word::k_pfn_section_shift, 15},
      {Word::k_section_in_page_flags, spec.section_in_page_flags ? 1U : 0U},
      {Word::k_sections_pgshift, spec.section_in_page_flags ? 43U : 0U},
      {Word::k_sections_mask, spec.section_in_page_flags ? (1U << 19) - 1 : 0U},
      {Word::k_nodes_pgshift, 0},
      {Word::k_nodes_mask, 0},
      {Word::k_zones_pgshift, 62},
      {Word::k_zones_mask, 3},
      {Word::k_zone_device_idx, 3},
      {Word::k_pg_reserved, 13},
      {Word::k_pg_head, 6},
      {Word::k_pgmap_addr, spec.pgmap_addr},
      {Word::k_pgmap_type, static_cast<uint64_t>(spec.type)},
      {Word::k_pgmap_flags, 0},
      {Word::k_vmemmap_shift, spec.vmemmap_shift},
      {Word::k_range_start_pfn, spec.init_start_pfn - spec.prefix_pages},
      {Word::k_range_end_pfn, spec.init_start_pfn + spec.nr_pages},
      {Word::k_init_start_pfn, spec.init_start_pfn},
      {Word::k_init_end_pfn, spec.init_start_pfn + spec.nr_pages},
      {Word::k_dump_start_pfn, spec.init_start_pfn - spec.prefix_pages},
      {Word::k_dump_end_pfn, spec.init_start_pfn + spec.nr_pages},
      {Word::k_altmap_valid, spec.prefix_pages ? 1U : 0U},
      {Word::k_init_calls, 1},
      {Word::k_poisoned, spec.poisoned ? 1U : 0U},
      {Word::k_poison_byte, 0xc3},
      {Word::k_tracepoint_on_at_init, 0},
      {Word::k_nid, 0},
      {Word::k_tail_mapping, k_x86_tail_mapping},
  };
  for (const auto& [word, value] : words) {
    h.set(word, value);
  }
  h.set(Word::k_off_memcg_data, tail.memcg_data);
  h.set(Word::k_off_virtual, tail.virtual_);
  h.set(Word::k_off_last_cpupid, tail.last_cpupid);
  h.set(Word::k_off_kmsan_shadow, tail.kmsan_shadow);
  h.set(Word::k_off_kmsan_origin, tail.kmsan_origin);
  return h;
}

}  // namespace

uint64_t synthetic_page_size(const SyntheticSpec& spec) { return tail_layout(spec).size; }

std::string synthetic_page(const DumpHeader& h, uint64_t pfn) {
  std::string page(h.page_size(), '\0');
  const PagePosition pos = position_of(h, pfn);
  const uint64_t self = page_address(h, pfn);
  uint64_t flags = (h.get(Word::k_zone_device_idx) & h.get(Word::k_zones_mask))
                   << h.get(Word::k_zones_pgshift);
  if (h.get(Word::k_section_in_page_flags) == 1) {
    flags |= ((pfn >> h.get(Word::k_pfn_section_shift)) & h.get(Word::k_sections_mask))
             << h.get(Word::k_sections_pgshift);
  }
  flags |= 1ULL << h.get(Word::k_pg_reserved);
  put(page, h.get(Word::k_off_mapcount), 0xffffffffULL, 4);
  if (h.has(Word::k_off_last_cpupid)) {  // __init_single_page(): page_cpupid_reset_last()
    put(page, h.get(Word::k_off_last_cpupid), k_synthetic_last_cpupid, 4);
  }
  if (h.has(Word::k_off_virtual)) {
    put(page, h.get(Word::k_off_virtual),
        h.get(Word::k_direct_map_base) + (pfn << h.get(Word::k_page_shift)), 8);
  }
  if (pos.role == PageRole::k_outside) {
    // memmap_init_range(): __init_single_page() + PG_reserved, an empty lru.
    put(page, h.get(Word::k_off_flags), flags, 8);
    put(page, h.get(Word::k_off_lru), self + h.get(Word::k_off_lru), 8);
    put(page, h.get(Word::k_off_lru) + 8, self + h.get(Word::k_off_lru), 8);
    put(page, h.get(Word::k_off_refcount), 1, 4);
    return page;
  }
  const uint64_t type = h.get(Word::k_pgmap_type);
  const bool zero_ref = type == static_cast<uint64_t>(PgmapType::k_private) ||
                        type == static_cast<uint64_t>(PgmapType::k_coherent);
  if (!pos.is_tail()) {
    if (pos.role == PageRole::k_head) {
      flags |= 1ULL << h.get(Word::k_pg_head);
    }
    put(page, h.get(Word::k_off_flags), flags, 8);
    put(page, h.get(Word::k_off_pgmap), h.get(Word::k_pgmap_addr), 8);
    put(page, h.get(Word::k_off_refcount), zero_ref ? 0 : 1, 4);
    return page;
  }
  // Tail: __init_zone_device_page(), prep_compound_tail(), refcount 0.
  const uint64_t tail_mapping =
      h.has(Word::k_tail_mapping) ? h.get(Word::k_tail_mapping) : k_x86_tail_mapping;
  put(page, h.get(Word::k_off_flags), flags, 8);
  put(page, h.get(Word::k_off_compound_head), page_address(h, pos.head_pfn) + 1, 8);
  put(page, h.get(Word::k_off_mapping), tail_mapping, 8);
  if (pos.role == PageRole::k_tail_1) {
    // prep_compound_head() right after tail 1, as 6.12 calls it.
    const uint64_t order = h.get(Word::k_vmemmap_shift);
    put(page, h.get(Word::k_off_flags_1), (flags & ~0xffULL) | order, 8);
    put(page, h.get(Word::k_off_large_mapcount), 0xffffffffULL, 4);
    put(page, h.get(Word::k_off_entire_mapcount), 0xffffffffULL, 4);
    put(page, h.get(Word::k_off_nr_pages_mapped), 0, 4);
    put(page, h.get(Word::k_off_pincount), 0, 4);
    if (h.has(Word::k_off_folio_nr_pages)) {
      put(page, h.get(Word::k_off_folio_nr_pages), 1ULL << order, 4);
    }
  }
  return page;
}

MemmapDump make_synthetic_dump(const SyntheticSpec& spec) {
  DumpHeader header = synthetic_header(spec);
  std::vector<PageRun> runs;
  const uint64_t end = header.get(Word::k_dump_end_pfn);
  for (uint64_t pfn = header.get(Word::k_dump_start_pfn); pfn < end; ++pfn) {
    std::string page = synthetic_page(header, pfn);
    if (!runs.empty() && runs.back().bytes == page) {
      ++runs.back().count;
    } else {
      runs.push_back({pfn, 1, std::move(page)});
    }
  }
  return MemmapDump(std::move(header), std::move(runs));
}

}  // namespace kseries::oracle
