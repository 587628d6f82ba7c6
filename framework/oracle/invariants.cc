#include "oracle/invariants.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>

#include "oracle/normalise.h"

namespace kseries::oracle {

namespace {

constexpr const char* k_poison_rule = "never written (poison)";
// Page flag bits below the zone/node/section fields that 6.12 init controls
// (NR_PAGEFLAGS is above 16 but every flag init sets is below).
constexpr uint64_t k_low_flag_mask = 0xffff;

int32_t load_i32(std::string_view bytes, uint64_t at) {
  return static_cast<int32_t>(static_cast<uint32_t>(load_le(bytes, at, 4)));
}

class Checker {
 public:
  explicit Checker(const DumpHeader& header) : m_header(header) {}

  // One PFN through the steps below, in this order; out-of-range PFNs are
  // not counted.
  void check_page(uint64_t pfn, std::string_view raw);
  InvariantReport finish();

 private:
  void check_poison();
  void check_flags_fields(uint64_t flags);
  void check_virtual();
  void check_flag_bits(uint64_t flags);
  void check_head();
  void check_tail_link();
  void check_tail_1();
  void check_later_tail();
  // DETAIL (a callable returning the text) runs only when the check fails:
  // building strings for every passing check of 512K pages is the cost.
  template <typename Detail>
  void expect(bool ok, const char* rule, const char* field, Detail detail);
  void expect_i32(Word offset_word, const char* rule, const char* field, int32_t want);
  uint64_t get(Word word) const { return m_header.get(word); }
  const std::vector<Field>& layout(PageRole role);

  const DumpHeader& m_header;
  uint64_t m_pfn = 0;
  PagePosition m_pos;
  std::string_view m_raw;
  uint64_t m_checked = 0;
  using Key = std::tuple<std::string, std::string, PageRole>;
  std::map<Key, InvariantViolation> m_groups;
  std::map<PageRole, std::vector<Field>> m_layouts;
};

const std::vector<Field>& Checker::layout(PageRole role) {
  auto it = m_layouts.find(role);
  if (it == m_layouts.end()) {
    it = m_layouts.emplace(role, fields_for(m_header, role)).first;
  }
  return it->second;
}

template <typename Detail>
void Checker::expect(bool ok, const char* rule, const char* field, Detail detail) {
  if (ok) {
    return;
  }
  InvariantViolation& v = m_groups[Key(rule, field, m_pos.role)];
  if (v.count == 0) {
    v.rule = rule;
    v.field = field;
    v.role = m_pos.role;
    v.first_detail = detail();
    v.first_pfn = m_pfn;
    v.first_position =
        m_pos.is_tail() ? m_pos.describe() + " of head " + hex(m_pos.head_pfn) : m_pos.describe();
  }
  ++v.count;
  if (v.sample_pfns.size() < InvariantReport::k_samples) {
    v.sample_pfns.push_back(m_pfn);
  }
}

void Checker::expect_i32(Word offset_word, const char* rule, const char* field, int32_t want) {
  if (!m_header.has(offset_word)) {
    return;
  }
  const int32_t have = load_i32(m_raw, get(offset_word));
  expect(have == want, rule, field, [&] {
    return std::string("is " + std::to_string(have) + ", should be " + std::to_string(want));
  });
}

void Checker::check_page(uint64_t pfn, std::string_view raw) {
  m_pfn = pfn;
  m_raw = raw;
  m_pos = position_of(m_header, pfn);
  if (m_pos.role == PageRole::k_outside) {
    return;
  }
  ++m_checked;
  check_poison();
  const uint64_t flags = load_le(raw, get(Word::k_off_flags), 8);
  check_flags_fields(flags);
  check_virtual();
  check_flag_bits(flags);
  if (!m_pos.is_tail()) {
    check_head();
    return;
  }
  check_tail_link();
  if (m_pos.role == PageRole::k_tail_1) {
    check_tail_1();
    return;
  }
  check_later_tail();
}

// A field still holding the module's poison was never written by the bind.
void Checker::check_poison() {
  if (get(Word::k_poisoned) != 1) {
    return;
  }
  for (const Field& field : layout(m_pos.role)) {
    if (is_poison(m_header, m_raw.substr(field.offset, field.size))) {
      expect(false, k_poison_rule, field.name.c_str(), [&] {
        return std::string("all " + std::to_string(field.size) + " bytes are the poison byte " +
                           hex(get(Word::k_poison_byte)));
      });
    }
  }
}

// The zone, node and (SECTION_IN_PAGE_FLAGS) section numbers packed into
// the top of page->flags.
void Checker::check_flags_fields(uint64_t flags) {
  const uint64_t zone = (flags >> get(Word::k_zones_pgshift)) & get(Word::k_zones_mask);
  expect(zone == get(Word::k_zone_device_idx), "zone bits", "flags", [&] {
    return std::string("zone " + std::to_string(zone) + ", ZONE_DEVICE is " +
                       std::to_string(get(Word::k_zone_device_idx)));
  });
  if (get(Word::k_nodes_mask) != 0 && m_header.has(Word::k_nid)) {
    const uint64_t node = (flags >> get(Word::k_nodes_pgshift)) & get(Word::k_nodes_mask);
    expect(node == get(Word::k_nid), "node bits", "flags", [&] {
      return std::string("node " + std::to_string(node) + ", the zone's node is " +
                         std::to_string(get(Word::k_nid)));
    });
  }
  if (get(Word::k_section_in_page_flags) == 1) {
    const uint64_t mask = get(Word::k_sections_mask);
    const uint64_t have = (flags >> get(Word::k_sections_pgshift)) & mask;
    const uint64_t want = (m_pfn >> get(Word::k_pfn_section_shift)) & mask;
    expect(have == want, "section bits", "flags", [&] {
      return std::string("section " + std::to_string(have) + ", the PFN's section is " +
                         std::to_string(want));
    });
  }
}

// page->virtual (WANT_PAGE_VIRTUAL kernels only) is the direct map address.
void Checker::check_virtual() {
  if (!m_header.has(Word::k_off_virtual)) {
    return;
  }
  const uint64_t have = load_le(m_raw, get(Word::k_off_virtual), 8);
  const uint64_t want = get(Word::k_direct_map_base) + (m_pfn << get(Word::k_page_shift));
  expect(have == want, "virtual", "virtual",
         [&] { return std::string("is " + hex(have) + ", __va(pfn) is " + hex(want)); });
}

// PG_reserved everywhere, PG_head on heads only, _mapcount -1, and nothing
// else in the low flag bits.
void Checker::check_flag_bits(uint64_t flags) {
  expect(flags & (1ULL << get(Word::k_pg_reserved)), "PG_reserved", "flags", [&] {
    return std::string("flags " + hex(flags) + " without PG_reserved (bit " +
                       std::to_string(get(Word::k_pg_reserved)) + ")");
  });
  const bool head_flag = flags & (1ULL << get(Word::k_pg_head));
  expect(head_flag == (m_pos.role == PageRole::k_head), "PG_head", "flags", [&] {
    return std::string(std::string("flags ") + hex(flags) + (head_flag ? " with" : " without") +
                       " PG_head");
  });
  expect_i32(Word::k_off_mapcount, "mapcount", "_mapcount", -1);
  // The low page-flag bits 6.12 sets at init: PG_reserved, PG_head on a
  // head, and in tail 1 (as _flags_1) the order in the low byte. Anything
  // else there was copied from another page or left over.
  uint64_t want_low = 1ULL << get(Word::k_pg_reserved);
  if (m_pos.role == PageRole::k_head) {
    want_low |= 1ULL << get(Word::k_pg_head);
  } else if (m_pos.role == PageRole::k_tail_1) {
    want_low = (want_low & ~0xffULL) | get(Word::k_vmemmap_shift);
  }
  expect((flags & k_low_flag_mask) == want_low, "page flag bits", "flags", [&] {
    return std::string("low flag bits " + hex(flags & k_low_flag_mask) + ", 6.12 sets " +
                       hex(want_low));
  });
}

// A head (or an order-0 page): refcount per pgmap type, the pgmap pointer
// in the compound_head word, zone_device_data cleared.
void Checker::check_head() {
  const uint64_t link = load_le(m_raw, get(Word::k_off_compound_head), 8);
  const uint64_t type = get(Word::k_pgmap_type);
  // 6.12: refcount 0 only for MEMORY_DEVICE_PRIVATE/COHERENT.
  const bool zero = type == static_cast<uint64_t>(PgmapType::k_private) ||
                    type == static_cast<uint64_t>(PgmapType::k_coherent);
  expect_i32(Word::k_off_refcount, "refcount", "_refcount", zero ? 0 : 1);
  expect(link == get(Word::k_pgmap_addr), "pgmap", "pgmap", [&] {
    return std::string("is " + hex(link) + ", the device's pgmap is " +
                       hex(get(Word::k_pgmap_addr)));
  });
  expect(load_le(m_raw, get(Word::k_off_zone_device_data), 8) == 0, "zone_device_data",
         "zone_device_data", [&] {
           return std::string("is " + hex(load_le(m_raw, get(Word::k_off_zone_device_data), 8)));
         });
}

// Every tail: refcount 0 and compound_head pointing at its head (bit 0 set).
void Checker::check_tail_link() {
  expect_i32(Word::k_off_refcount, "refcount", "_refcount", 0);
  const uint64_t link = load_le(m_raw, get(Word::k_off_compound_head), 8);
  const uint64_t want_link = page_address(m_header, m_pos.head_pfn) + 1;
  expect(link == want_link, "tail->head", "compound_head", [&] {
    return std::string("is " + hex(link) + ", head " + hex(m_pos.head_pfn) + " is at " +
                       hex(want_link - 1));
  });
}

// Tail 1 holds the folio's order, nr_pages and mapcounts.
void Checker::check_tail_1() {
  const uint64_t order = get(Word::k_vmemmap_shift);
  const uint64_t flags_1 = load_le(m_raw, get(Word::k_off_flags_1), 8);
  expect((flags_1 & 0xff) == order, "order", "_flags_1", [&] {
    return std::string("order byte " + std::to_string(flags_1 & 0xff) + ", vmemmap_shift is " +
                       std::to_string(order));
  });
  if (m_header.has(Word::k_off_folio_nr_pages)) {
    const uint64_t nr = load_le(m_raw, get(Word::k_off_folio_nr_pages), 4);
    expect(nr == (1ULL << order), "nr_pages", "_folio_nr_pages", [&] {
      return std::string("is " + std::to_string(nr) + ", should be " +
                         std::to_string(1ULL << order));
    });
  }
  expect_i32(Word::k_off_large_mapcount, "folio mapcounts", "_large_mapcount", -1);
  expect_i32(Word::k_off_entire_mapcount, "folio mapcounts", "_entire_mapcount", -1);
  expect_i32(Word::k_off_nr_pages_mapped, "folio mapcounts", "_nr_pages_mapped", 0);
  expect_i32(Word::k_off_pincount, "folio mapcounts", "_pincount", 0);
}

// Tail 2 on: prep_compound_tail() clears private; nothing sets index in a
// tail; zone_device_data (tail 3+) and tail 2's _deferred_list.next stay
// NULL; mapping is TAIL_MAPPING; tail 2 is initialised after the head.
void Checker::check_later_tail() {
  expect(load_le(m_raw, get(Word::k_off_index), 8) == 0, "tail fields", "index", [&] {
    return std::string("is " + hex(load_le(m_raw, get(Word::k_off_index), 8)) + ", should be 0");
  });
  expect(load_le(m_raw, get(Word::k_off_private), 8) == 0, "tail fields", "private", [&] {
    return std::string("is " + hex(load_le(m_raw, get(Word::k_off_private), 8)) + ", should be 0");
  });
  const uint64_t zdd_off = get(Word::k_off_zone_device_data);
  expect(load_le(m_raw, zdd_off, 8) == 0, "tail fields",
         m_pos.role == PageRole::k_tail_2 ? "_deferred_list.next" : "zone_device_data",
         [&] { return std::string("is " + hex(load_le(m_raw, zdd_off, 8)) + ", should be 0"); });
  if (m_header.has(Word::k_tail_mapping)) {
    const uint64_t mapping = load_le(m_raw, get(Word::k_off_mapping), 8);
    expect(mapping == get(Word::k_tail_mapping), "TAIL_MAPPING", "mapping", [&] {
      return std::string("is " + hex(mapping) + ", TAIL_MAPPING is " +
                         hex(get(Word::k_tail_mapping)));
    });
  }
  if (m_pos.role == PageRole::k_tail_2 && get(Word::k_vmemmap_shift) > 1) {
    // 6.12 initialises tail 2 after prep_compound_head(): an empty (self)
    // _deferred_list there means prep_compound_head() ran after the loop.
    const uint64_t next = load_le(m_raw, get(Word::k_off_deferred_list), 8);
    const uint64_t self = page_address(m_header, m_pfn) + get(Word::k_off_deferred_list);
    expect(next != self, "tail 2 order", "_deferred_list.next", [&] {
      return std::string(
          "is an empty list (points to itself): prep_compound_head() ran after tail 2 was "
          "initialised; 6.12 calls it right after tail 1");
    });
  }
}

InvariantReport Checker::finish() {
  InvariantReport report;
  report.pages_checked = m_checked;
  for (auto& [key, v] : m_groups) {
    report.violations.push_back(std::move(v));
  }
  std::stable_sort(report.violations.begin(), report.violations.end(),
                   [](const InvariantViolation& a, const InvariantViolation& b) {
                     // Poison first: the other rules then only restate it.
                     const bool ap = a.rule == k_poison_rule;
                     const bool bp = b.rule == k_poison_rule;
                     return ap != bp ? ap : a.count > b.count;
                   });
  return report;
}

}  // namespace

InvariantReport check_invariants(const MemmapDump& dump) {
  Checker checker(dump.header());
  const DumpHeader& header = dump.header();
  for (const PageRun& run : dump.runs()) {
    for (uint64_t i = 0; i < run.count; ++i) {
      checker.check_page(run.first_pfn + i, run.bytes);
    }
  }
  InvariantReport report = checker.finish();
  if (header.has(Word::k_unwritten_pfn)) {
    report.notes.push_back("the module re-poisoned pfn " + hex(header.get(Word::k_unwritten_pfn)) +
                           " after the init on purpose (unwritten_index): it must be flagged");
  }
  if (header.get(Word::k_poisoned) != 1) {
    report.notes.push_back(
        "the range was not poisoned before the init: a page the init "
        "skipped can hold a previous bind's bytes and pass");
  }
  return report;
}

std::string format_invariants(const InvariantReport& report, size_t max_violations) {
  std::string out = std::to_string(report.pages_checked) + " pages checked, " +
                    std::to_string(report.violations.size()) + " invariant(s) violated\n";
  size_t shown = 0;
  for (const InvariantViolation& v : report.violations) {
    if (shown++ == max_violations) {
      out += "  ... " + std::to_string(report.violations.size() - max_violations) + " more\n";
      break;
    }
    out += "  " + v.rule + ": pfn " + hex(v.first_pfn) + " (" + v.first_position + ") field " +
           v.field + " " + v.first_detail + "; " + std::to_string(v.count) + " " +
           std::string(role_name(v.role)) + " page(s) (pfns";
    for (uint64_t pfn : v.sample_pfns) {
      out += " " + hex(pfn);
    }
    out += v.count > v.sample_pfns.size() ? " ...)\n" : ")\n";
  }
  for (const std::string& note : report.notes) {
    out += "  note: " + note + "\n";
  }
  return out;
}

}  // namespace kseries::oracle
