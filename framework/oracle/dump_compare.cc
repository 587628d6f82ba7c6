#include "oracle/dump_compare.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "oracle/normalise.h"

namespace kseries::oracle {

namespace {

// Header words that must agree for a byte comparison to mean anything.
// The fields past the 56 bytes every 6.12 x86-64 struct page has
// (memcg_data, _last_cpupid, the KMSAN pointers) are among them: two dumps
// of 80- or 96-byte struct pages compare only if those bytes mean the same.
constexpr Word k_layout_words[] = {
    Word::k_sizeof_page,        Word::k_off_flags,         Word::k_off_compound_head,
    Word::k_off_mapcount,       Word::k_off_refcount,      Word::k_off_pgmap,
    Word::k_off_memcg_data,     Word::k_off_virtual,       Word::k_off_last_cpupid,
    Word::k_off_kmsan_shadow,   Word::k_off_kmsan_origin,  Word::k_off_flags_1,
    Word::k_off_folio_nr_pages, Word::k_off_deferred_list, Word::k_vmemmap_shift,
    Word::k_init_start_pfn,     Word::k_init_end_pfn,      Word::k_pgmap_type,
};

std::string position_text(const PagePosition& pos) {
  if (pos.is_tail()) {
    return pos.describe() + " of head " + hex(pos.head_pfn);
  }
  return pos.describe();
}

}  // namespace

Comparison compare_dumps(const MemmapDump& expected, const MemmapDump& actual) {
  Comparison result;
  const DumpHeader& eh = expected.header();
  const DumpHeader& ah = actual.header();
  for (Word word : k_layout_words) {
    if (eh.get(word) != ah.get(word)) {
      result.incompatible.push_back(std::string(word_name(word)) + ": expected " +
                                    hex(eh.get(word)) + ", actual " + hex(ah.get(word)));
    }
  }
  if (!result.incompatible.empty()) {
    return result;
  }
  const uint64_t start = std::max(expected.start_pfn(), actual.start_pfn());
  const uint64_t end = std::min(expected.end_pfn(), actual.end_pfn());
  using Key = std::tuple<std::string, PageRole, std::string, std::string>;
  std::map<Key, MismatchGroup> groups;
  std::map<PageRole, std::vector<Field>> layouts;
  for (uint64_t pfn = start; pfn < end; ++pfn) {
    const auto e_raw = expected.page(pfn);
    const auto a_raw = actual.page(pfn);
    ++result.pages_compared;
    if (*e_raw == *a_raw) {
      continue;  // identical raw bytes normalise identically
    }
    const std::string e = normalise_page(eh, pfn, *e_raw);
    const std::string a = normalise_page(ah, pfn, *a_raw);
    if (e == a) {
      continue;
    }
    ++result.pages_differing;
    const PagePosition pos = position_of(eh, pfn);
    auto layout = layouts.find(pos.role);
    if (layout == layouts.end()) {
      layout = layouts.emplace(pos.role, fields_for(eh, pos.role)).first;
    }
    for (const Field& field : layout->second) {
      const std::string_view ef = std::string_view(e).substr(field.offset, field.size);
      const std::string_view af = std::string_view(a).substr(field.offset, field.size);
      if (ef == af) {
        continue;
      }
      MismatchGroup& group = groups[Key(field.name, pos.role, std::string(ef), std::string(af))];
      if (group.count == 0) {
        group.field = field.name;
        group.role = pos.role;
        group.expected = hex_bytes(ef);
        group.actual = hex_bytes(af);
        group.expected_text = render_value(eh, ef);
        group.actual_text = render_value(ah, af);
        group.first_pfn = pfn;
        group.first_position = position_text(pos);
      }
      ++group.count;
      if (group.sample_pfns.size() < Comparison::k_samples) {
        group.sample_pfns.push_back(pfn);
      }
    }
  }
  for (auto& [key, group] : groups) {
    result.groups.push_back(std::move(group));
  }
  std::stable_sort(
      result.groups.begin(), result.groups.end(),
      [](const MismatchGroup& a, const MismatchGroup& b) { return a.count > b.count; });
  return result;
}

std::string format_comparison(const Comparison& comparison, size_t max_groups) {
  std::string out;
  if (!comparison.incompatible.empty()) {
    out += "dumps are not comparable:\n";
    for (const std::string& line : comparison.incompatible) {
      out += "  " + line + "\n";
    }
    return out;
  }
  out += std::to_string(comparison.pages_compared) + " pages compared, " +
         std::to_string(comparison.pages_differing) + " differ";
  if (comparison.groups.empty()) {
    return out + "\n";
  }
  out += " in " + std::to_string(comparison.groups.size()) + " distinct field mismatch(es)\n";
  size_t shown = 0;
  for (const MismatchGroup& g : comparison.groups) {
    if (shown++ == max_groups) {
      out += "  ... " + std::to_string(comparison.groups.size() - max_groups) + " more\n";
      break;
    }
    out += "  pfn " + hex(g.first_pfn) + " (" + g.first_position + ") field " + g.field +
           ": expected " + g.expected_text + " [" + g.expected + "], actual " + g.actual_text +
           " [" + g.actual + "]; " + std::to_string(g.count) + " " +
           std::string(role_name(g.role)) + " page(s) share this mismatch (pfns";
    for (uint64_t pfn : g.sample_pfns) {
      out += " " + hex(pfn);
    }
    out += g.count > g.sample_pfns.size() ? " ...)\n" : ")\n";
  }
  return out;
}

}  // namespace kseries::oracle
