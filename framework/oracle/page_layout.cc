#include "oracle/page_layout.h"

#include <algorithm>

namespace kseries::oracle {

namespace {

void add(std::vector<Field>& fields, const DumpHeader& header, Word word, std::string name,
         size_t size) {
  if (header.has(word)) {
    fields.push_back({std::move(name), static_cast<size_t>(header.get(word)), size});
  }
}

// struct page as 6.12 lays it out for ZONE_DEVICE pages; the word at
// compound_head is the pgmap in a head or order-0 page. Ordinary memory
// (no pgmap in the header) has the lru list head there.
std::vector<Field> page_fields(const DumpHeader& header, PageRole role) {
  std::vector<Field> fields;
  const bool tail =
      role == PageRole::k_tail_1 || role == PageRole::k_tail_2 || role == PageRole::k_tail;
  add(fields, header, Word::k_off_flags, "flags", 8);
  // A dump of ordinary memory (HugeTLB, no pgmap): the words ZONE_DEVICE
  // pages use for pgmap and zone_device_data are the lru list head.
  const bool device = header.has(Word::k_pgmap_addr);
  if (role == PageRole::k_outside || (!device && !tail)) {
    add(fields, header, Word::k_off_lru, "lru.next", 8);
    fields.push_back({"lru.prev", static_cast<size_t>(header.get(Word::k_off_lru)) + 8, 8});
  } else {
    add(fields, header, tail ? Word::k_off_compound_head : Word::k_off_pgmap,
        tail ? "compound_head" : "pgmap", 8);
    add(fields, header, Word::k_off_zone_device_data, device ? "zone_device_data" : "lru.prev", 8);
  }
  add(fields, header, Word::k_off_mapping, "mapping", 8);
  add(fields, header, Word::k_off_index, "index", 8);
  add(fields, header, Word::k_off_private, "private", 8);
  add(fields, header, Word::k_off_mapcount, "_mapcount", 4);
  add(fields, header, Word::k_off_refcount, "_refcount", 4);
  add(fields, header, Word::k_off_memcg_data, "memcg_data", 8);
  add(fields, header, Word::k_off_virtual, "virtual", 8);
  add(fields, header, Word::k_off_last_cpupid, "_last_cpupid", 4);
  add(fields, header, Word::k_off_kmsan_shadow, "kmsan_shadow", 8);
  add(fields, header, Word::k_off_kmsan_origin, "kmsan_origin", 8);
  return fields;
}

std::vector<Field> folio_fields(const DumpHeader& header, PageRole role) {
  std::vector<Field> fields;
  if (role == PageRole::k_tail_1) {
    add(fields, header, Word::k_off_flags_1, "_flags_1", 8);
    add(fields, header, Word::k_off_head_1, "compound_head", 8);
    add(fields, header, Word::k_off_large_mapcount, "_large_mapcount", 4);
    add(fields, header, Word::k_off_entire_mapcount, "_entire_mapcount", 4);
    add(fields, header, Word::k_off_nr_pages_mapped, "_nr_pages_mapped", 4);
    add(fields, header, Word::k_off_pincount, "_pincount", 4);
    add(fields, header, Word::k_off_folio_nr_pages, "_folio_nr_pages", 4);
  } else if (role == PageRole::k_tail_2) {
    add(fields, header, Word::k_off_flags_2, "_flags_2", 8);
    add(fields, header, Word::k_off_head_2, "compound_head", 8);
    add(fields, header, Word::k_off_deferred_list, "_deferred_list.next", 8);
    if (header.has(Word::k_off_deferred_list)) {
      fields.push_back({"_deferred_list.prev",
                        static_cast<size_t>(header.get(Word::k_off_deferred_list)) + 8, 8});
    }
  }
  return fields;
}

}  // namespace

std::string_view role_name(PageRole role) {
  switch (role) {
    case PageRole::k_outside:
      return "outside init range";
    case PageRole::k_single:
      return "order-0";
    case PageRole::k_head:
      return "head";
    case PageRole::k_tail_1:
      return "tail 1";
    case PageRole::k_tail_2:
      return "tail 2";
    case PageRole::k_tail:
      return "tail 3+";
  }
  return "?";
}

std::string PagePosition::describe() const {
  if (role == PageRole::k_tail || role == PageRole::k_tail_1 || role == PageRole::k_tail_2) {
    return "tail " + std::to_string(index);
  }
  return std::string(role_name(role));
}

PagePosition position_of(const DumpHeader& header, uint64_t pfn) {
  PagePosition pos;
  pos.head_pfn = pfn;
  const uint64_t start = header.get(Word::k_init_start_pfn);
  const uint64_t end = header.get(Word::k_init_end_pfn);
  if (pfn < start || pfn >= end) {
    return pos;
  }
  const uint64_t shift = header.get(Word::k_vmemmap_shift);
  if (shift == 0 || shift == k_absent) {
    pos.role = PageRole::k_single;
    return pos;
  }
  const uint64_t nr = 1ULL << shift;
  pos.index = (pfn - start) % nr;
  pos.head_pfn = pfn - pos.index;
  pos.role = pos.index == 0   ? PageRole::k_head
             : pos.index == 1 ? PageRole::k_tail_1
             : pos.index == 2 ? PageRole::k_tail_2
                              : PageRole::k_tail;
  return pos;
}

std::vector<Field> fields_for(const DumpHeader& header, PageRole role) {
  const size_t size = header.page_size();
  std::vector<Field> result = folio_fields(header, role);
  std::vector<int> owner(size, -1);
  for (size_t i = 0; i < result.size(); ++i) {
    for (size_t b = result[i].offset; b < result[i].offset + result[i].size && b < size; ++b) {
      owner[b] = static_cast<int>(i);
    }
  }
  // The page's own fields fill the bytes the folio does not overlay; a field
  // cut by the overlay keeps its name with the offset of its remainder.
  for (const Field& field : page_fields(header, role)) {
    size_t b = field.offset;
    while (b < field.offset + field.size && b < size) {
      if (owner[b] != -1) {
        ++b;
        continue;
      }
      size_t e = b;
      while (e < field.offset + field.size && e < size && owner[e] == -1) {
        ++e;
      }
      std::string name = field.name;
      if (b != field.offset || e != field.offset + field.size) {
        name += "+" + std::to_string(b - field.offset);
      }
      result.push_back({name, b, e - b});
      for (size_t k = b; k < e; ++k) {
        owner[k] = static_cast<int>(result.size() - 1);
      }
      b = e;
    }
  }
  for (size_t b = 0; b < size;) {
    if (owner[b] != -1) {
      ++b;
      continue;
    }
    size_t e = b;
    while (e < size && owner[e] == -1) {
      ++e;
    }
    result.push_back({"padding+" + std::to_string(b), b, e - b});
    b = e;
  }
  std::sort(result.begin(), result.end(),
            [](const Field& a, const Field& b) { return a.offset < b.offset; });
  return result;
}

std::string field_at(const DumpHeader& header, PageRole role, size_t offset) {
  for (const Field& field : fields_for(header, role)) {
    if (offset >= field.offset && offset < field.offset + field.size) {
      return field.name;
    }
  }
  return "?";
}

}  // namespace kseries::oracle
