#include "oracle/hugetlb_tails.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <utility>

#include "core/error.h"
#include "oracle/bulk_blobs.h"
#include "oracle/dump_compare.h"
#include "oracle/invariants.h"
#include "oracle/normalise.h"

namespace kseries::oracle {

namespace {

// Page-flag bits below the zone/node/section fields; tail 1 keeps the
// folio order in the low byte (folio_set_order()).
constexpr uint64_t k_low_flags = 0xffff;

// Groups violations by (rule, field) the way invariants.h reports them.
class Collector {
 public:
  template <typename Detail>
  void expect(bool ok, const char* rule, const char* field, uint64_t pfn, const PagePosition& pos,
              Detail detail) {
    if (ok) {
      return;
    }
    InvariantViolation& v = m_groups[{rule, field}];
    if (v.count == 0) {
      v.rule = rule;
      v.field = field;
      v.role = pos.role;
      v.first_detail = detail();
      v.first_pfn = pfn;
      v.first_position =
          pos.is_tail() ? pos.describe() + " of head " + hex(pos.head_pfn) : pos.describe();
    }
    ++v.count;
    if (v.sample_pfns.size() < InvariantReport::k_samples) {
      v.sample_pfns.push_back(pfn);
    }
  }

  InvariantReport finish(uint64_t checked) {
    InvariantReport report;
    report.pages_checked = checked;
    for (auto& [key, v] : m_groups) {
      report.violations.push_back(std::move(v));
    }
    std::stable_sort(report.violations.begin(), report.violations.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
    return report;
  }

 private:
  std::map<std::pair<std::string, std::string>, InvariantViolation> m_groups;
};

InvariantReport check_folio(const HugeFolio& folio) {
  const DumpHeader& h = folio.dump.header();
  const uint64_t n = 1ULL << folio.order;
  const uint64_t head_addr = page_address(h, folio.head_pfn);
  const uint64_t off_flags = h.get(Word::k_off_flags);
  const uint64_t off_link = h.get(Word::k_off_compound_head);
  const bool sections = h.get(Word::k_section_in_page_flags) == 1;
  Collector c;
  uint64_t checked = 0;
  for (uint64_t pfn = folio.dump.start_pfn(); pfn < folio.dump.end_pfn(); ++pfn) {
    const std::string_view raw = *folio.dump.page(pfn);
    const PagePosition pos = position_of(h, pfn);
    const uint64_t flags = load_le(raw, off_flags, 8);
    const uint64_t link = load_le(raw, off_link, 8);
    ++checked;
    if (sections) {
      const uint64_t section =
          (flags >> h.get(Word::k_sections_pgshift)) & h.get(Word::k_sections_mask);
      const uint64_t want = pfn >> h.get(Word::k_pfn_section_shift);
      c.expect(section == want, "section bits follow the PFN", "flags", pfn, pos, [&] {
        return "section " + std::to_string(section) + " in flags " + hex(flags) +
               ", the PFN's is " + std::to_string(want);
      });
    }
    if (pos.role == PageRole::k_outside) {
      // A neighbour: nothing of this folio may have been written into it.
      const bool tail_of_folio =
          (link & 1) && link - 1 >= head_addr && link - 1 < head_addr + n * h.page_size();
      c.expect(!tail_of_folio, "written outside the folio", "compound_head", pfn, pos, [&] {
        return "the page " + std::string(pfn < folio.head_pfn ? "before" : "after") +
               " the folio [" + hex(folio.head_pfn) + ", " + hex(folio.head_pfn + n) +
               ") is a tail of it (compound_head " + hex(link) + ")";
      });
      continue;
    }
    if (pos.role == PageRole::k_head) {
      c.expect(flags & (1ULL << h.get(Word::k_pg_head)), "head", "flags", pfn, pos,
               [&] { return "flags " + hex(flags) + " without PG_head"; });
      continue;
    }
    c.expect(link == head_addr + 1, "tail->head", "compound_head", pfn, pos, [&] {
      return "is " + hex(link) + ", should be the head's struct page " + hex(head_addr) + "|1";
    });
    if (h.has(Word::k_off_refcount)) {
      const auto ref = static_cast<int32_t>(load_le(raw, h.get(Word::k_off_refcount), 4));
      c.expect(ref == 0, "tail refcount", "_refcount", pfn, pos,
               [&] { return "is " + std::to_string(ref) + ", should be 0 (page_ref_freeze)"; });
    }
    if (pos.role == PageRole::k_tail_1) {
      c.expect((flags & 0xff) == folio.order && (flags & k_low_flags & ~0xffULL) == 0, "order",
               "_flags_1", pfn, pos, [&] {
                 return "flags " + hex(flags) + ", low byte should be the order " +
                        std::to_string(folio.order) + " and bits 8-15 clear";
               });
      if (h.has(Word::k_off_folio_nr_pages)) {
        const uint64_t nr = load_le(raw, h.get(Word::k_off_folio_nr_pages), 4);
        c.expect(nr == n, "nr_pages", "_folio_nr_pages", pfn, pos,
                 [&] { return "is " + std::to_string(nr) + ", should be " + std::to_string(n); });
      }
    } else {
      c.expect((flags & k_low_flags) == 0, "tail flags", "flags", pfn, pos, [&] {
        return "flags " + hex(flags) + ": a tail has no page flags below the zone/node fields";
      });
    }
    if (pos.role == PageRole::k_tail && h.has(Word::k_tail_mapping)) {
      const uint64_t mapping = load_le(raw, h.get(Word::k_off_mapping), 8);
      c.expect(mapping == h.get(Word::k_tail_mapping), "TAIL_MAPPING", "mapping", pfn, pos, [&] {
        return "is " + hex(mapping) + ", should be TAIL_MAPPING " +
               hex(h.get(Word::k_tail_mapping));
      });
    }
  }
  return c.finish(checked);
}

std::string size_of_order(unsigned order, unsigned page_shift) {
  const unsigned bits = order + page_shift;
  if (bits >= 30) {
    return std::to_string(1ULL << (bits - 30)) + "G";
  }
  return std::to_string(1ULL << (bits - 20)) + "M";
}

std::vector<std::string> sizes_in(const HugetlbDumps& a, const HugetlbDumps* b = nullptr) {
  std::vector<std::string> sizes;
  auto add = [&](const std::string& size) {
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) {
      sizes.push_back(size);
    }
  };
  for (const HugetlbDumps* d : {&a, b}) {
    if (!d) {
      continue;
    }
    for (const auto& f : d->folios) {
      add(f.size);
    }
    for (const auto& [size, why] : d->errors) {
      add(size);
    }
  }
  return sizes;
}

std::vector<const HugeFolio*> of_size(const HugetlbDumps& d, const std::string& size) {
  std::vector<const HugeFolio*> out;
  for (const auto& f : d.folios) {
    if (f.size == size) {
      out.push_back(&f);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const HugeFolio* a, const HugeFolio* b) { return a->head_pfn < b->head_pfn; });
  return out;
}

SetupVerdict finish(SetupVerdict v, const std::vector<std::string>& problems,
                    const std::string& pass_summary) {
  if (problems.empty()) {
    v.status = VerdictStatus::k_pass;
    v.summary = pass_summary;
    return v;
  }
  v.status = VerdictStatus::k_fail;
  for (const std::string& p : problems) {
    v.summary += (v.summary.empty() ? "" : "; ") + p;
  }
  return v;
}

}  // namespace

void set_folio_geometry(MemmapDump& dump, uint64_t head_pfn, unsigned order) {
  DumpHeader& h = dump.header();
  h.set(Word::k_init_start_pfn, head_pfn);
  h.set(Word::k_init_end_pfn, head_pfn + (1ULL << order));
  h.set(Word::k_vmemmap_shift, order);
}

MemmapDump slice_dump(const MemmapDump& dump, uint64_t start, uint64_t end) {
  start = std::max(start, dump.start_pfn());
  end = std::min(end, dump.end_pfn());
  DumpHeader header = dump.header();
  header.set(Word::k_dump_start_pfn, start);
  header.set(Word::k_dump_end_pfn, std::max(start, end));
  std::vector<PageRun> runs;
  for (const PageRun& run : dump.runs()) {
    const uint64_t lo = std::max(run.first_pfn, start);
    const uint64_t hi = std::min(run.first_pfn + run.count, end);
    if (lo < hi) {
      runs.push_back({lo, hi - lo, run.bytes});
    }
  }
  return MemmapDump(std::move(header), std::move(runs));
}

HugetlbDumps collect_hugetlb_dumps(const std::vector<guest::Event>& events,
                                   const std::filesystem::path& disk_image) {
  HugetlbDumps out;
  for (const BlobRef& ref : blob_refs(events)) {
    // huge-<size>-<index>
    if (ref.name.rfind("huge-", 0) != 0) {
      continue;
    }
    const size_t dash = ref.name.rfind('-');
    const std::string size = ref.name.substr(5, dash - 5);
    try {
      HugeFolio folio;
      folio.size = size;
      folio.index = std::stoi(ref.name.substr(dash + 1));
      folio.dump = parse_memmap_dump(read_blob(disk_image, ref));
      // The module gives the folio's geometry (init range, vmemmap_shift).
      const DumpHeader& h = folio.dump.header();
      const uint64_t head = h.get(Word::k_init_start_pfn);
      const uint64_t shift = h.get(Word::k_vmemmap_shift);
      if (head == k_absent || shift == k_absent || shift == 0 || shift > 30 ||
          h.get(Word::k_init_end_pfn) != head + (1ULL << shift) || !folio.dump.contains(head) ||
          !folio.dump.contains(head + (1ULL << shift) - 1)) {
        throw usage_error("blob " + ref.name + ": the dump [" +
                          std::to_string(folio.dump.start_pfn()) + ", " +
                          std::to_string(folio.dump.end_pfn()) +
                          ") does not hold a whole HugeTLB folio (no head at its start)");
      }
      folio.head_pfn = head;
      folio.order = static_cast<unsigned>(shift);
      set_folio_geometry(folio.dump, folio.head_pfn, folio.order);
      const std::string named = size_of_order(
          folio.order, static_cast<unsigned>(folio.dump.header().get(Word::k_page_shift)));
      if (named != size) {
        throw usage_error("blob " + ref.name + " holds an order-" + std::to_string(folio.order) +
                          " folio (" + named + ")");
      }
      out.folios.push_back(std::move(folio));
    } catch (const Error& e) {
      out.errors[size] += std::string(out.errors[size].empty() ? "" : "; ") + e.what();
    } catch (const std::exception& e) {
      out.errors[size] += std::string(out.errors[size].empty() ? "" : "; ") + ref.name +
                          ": bad blob name (" + e.what() + ")";
    }
  }
  for (const guest::Measurement& m : guest::measurements(events)) {
    if (m.metric == "empty_range_folio") {
      out.empty_range_folio = static_cast<uint64_t>(m.value);
    }
    if (const auto zone = m.extra.find("zone");
        m.metric == "zone_contiguous" && zone != m.extra.end()) {
      out.zone_contiguous[zone->second] = m.value != 0;
    }
  }
  return out;
}

std::vector<SetupVerdict> judge_hugetlb_tails(const HugetlbDumps& dumps) {
  std::vector<SetupVerdict> verdicts;
  for (const std::string& size : sizes_in(dumps)) {
    SetupVerdict v;
    v.setup = size;
    std::vector<std::string> problems;
    if (dumps.errors.count(size)) {
      problems.push_back(dumps.errors.at(size));
    }
    uint64_t tails = 0;
    bool hook_here = false;
    const auto folios = of_size(dumps, size);
    for (const HugeFolio* f : folios) {
      const InvariantReport r = check_folio(*f);
      tails += (1ULL << f->order) - 1;
      const bool hooked = dumps.empty_range_folio && *dumps.empty_range_folio == f->head_pfn;
      hook_here = hook_here || hooked;
      v.details += "[" + size + " folio at pfn " + hex(f->head_pfn) +
                   (hooked ? ", empty tail range [N, N) initialised by the test hook" : "") + "] " +
                   format_invariants(r);
      if (!r.ok()) {
        const InvariantViolation& first = r.violations[0];
        problems.push_back(
            "folio at pfn " + hex(f->head_pfn) + " breaks " + std::to_string(r.violations.size()) +
            " invariant(s), first: " + first.rule + " (" + first.field + ") at pfn " +
            hex(first.first_pfn) + " (" + first.first_position + "): " + first.first_detail);
      }
    }
    if (folios.empty() && problems.empty()) {
      problems.push_back("no " + size + " HugeTLB folio dumped");
    }
    const bool sections =
        !folios.empty() && folios[0]->dump.header().get(Word::k_section_in_page_flags) == 1;
    verdicts.push_back(
        finish(v, problems,
               std::to_string(folios.size()) + " " + size + " folio(s), " + std::to_string(tails) +
                   " tails linked to their head with refcount 0, order in tail 1" +
                   (sections ? ", section bits per PFN" : "") + "; neighbours untouched" +
                   (hook_here ? " (including after an empty-range init by the test hook)" : "")));
  }
  return verdicts;
}

namespace {

// The zones whose zone->contiguous the series changed (none when either
// side did not report its zones).
std::vector<std::string> zone_differences(const HugetlbDumps& base, const HugetlbDumps& series) {
  std::vector<std::string> out;
  for (const auto& [zone, contiguous] : base.zone_contiguous) {
    const auto mine = series.zone_contiguous.find(zone);
    if (mine != series.zone_contiguous.end() && mine->second != contiguous) {
      out.push_back("zone " + zone + " is " + (mine->second ? "" : "not ") +
                    "contiguous after boot, the base kernel's is" + (contiguous ? "" : " not") +
                    " (set_zone_contiguous() compares the first and last struct page of "
                    "every pageblock: struct pages read before they were initialised?)");
    }
  }
  return out;
}

}  // namespace

std::vector<SetupVerdict> judge_hugetlb_vs_base(const HugetlbDumps& base,
                                                const HugetlbDumps& series) {
  std::vector<SetupVerdict> verdicts;
  // A zone's contiguity belongs to no folio size: named in the first one's.
  std::vector<std::string> zones = zone_differences(base, series);
  for (const std::string& size : sizes_in(base, &series)) {
    SetupVerdict v;
    v.setup = size;
    std::vector<std::string> problems = std::exchange(zones, {});
    const auto b = of_size(base, size);
    const auto s = of_size(series, size);
    if (b.size() != s.size()) {
      std::string missing;
      for (const HugeFolio* f : b) {
        const bool found = std::any_of(
            s.begin(), s.end(), [&](const HugeFolio* g) { return g->head_pfn == f->head_pfn; });
        if (!found) {
          missing += (missing.empty() ? "" : ", ") + hex(f->head_pfn);
        }
      }
      problems.push_back(
          "the base kernel has " + std::to_string(b.size()) + " " + size +
          " HugeTLB folio(s), the series " + std::to_string(s.size()) +
          (missing.empty() ? "" : " (not a HugeTLB head on the series: pfn " + missing + ")"));
    }
    uint64_t compared = 0;
    std::vector<std::string> notes;
    for (const HugeFolio* f : s) {
      const auto match = std::find_if(b.begin(), b.end(), [&](const HugeFolio* g) {
        return g->head_pfn == f->head_pfn && g->order == f->order;
      });
      if (match == b.end()) {
        problems.push_back("folio at pfn " + hex(f->head_pfn) +
                           " has no folio at the same PFN on the base kernel");
        continue;
      }
      const uint64_t first_tail = f->head_pfn + 1;
      const uint64_t end = f->head_pfn + (1ULL << f->order);
      const Comparison c = compare_dumps(slice_dump((*match)->dump, first_tail, end),
                                         slice_dump(f->dump, first_tail, end));
      compared += c.pages_compared;
      v.details += "[" + size + " folio at pfn " + hex(f->head_pfn) + ", tails, base vs series] " +
                   format_comparison(c);
      // One difference is reported, not failed: a tail's lru.prev that the
      // base leaves pointing at its own page (INIT_LIST_HEAD, then
      // prep_compound_tail() overwrites only lru.next) and a template copy
      // leaves pointing at the template's source page. No tail uses its lru.
      Comparison real = c;
      real.groups.clear();
      real.pages_differing = 0;
      for (const MismatchGroup& g : c.groups) {
        const bool copied_list = g.field == "lru.prev" && g.role == PageRole::k_tail &&
                                 g.expected_text.rfind("self+", 0) == 0 &&
                                 g.actual_text.find(k_copied_list_text) != std::string::npos;
        if (copied_list) {
          notes.push_back("folio at pfn " + hex(f->head_pfn) + ": lru.prev of " +
                          std::to_string(g.count) + " tail(s) is " + g.actual_text +
                          ", the base's is the page's own (" + g.expected_text +
                          "); not failed: no tail uses its lru");
        } else {
          real.groups.push_back(g);
          real.pages_differing += g.count;
        }
      }
      if (!real.equal()) {
        const Comparison& c = real;
        problems.push_back(
            c.incompatible.empty()
                ? "folio at pfn " + hex(f->head_pfn) + ": the series differs from the base in " +
                      std::to_string(c.pages_differing) + " tail(s), first: field " +
                      c.groups[0].field + " at pfn " + hex(c.groups[0].first_pfn) + " (" +
                      c.groups[0].first_position + "), base " + c.groups[0].expected_text +
                      ", series " + c.groups[0].actual_text
                : "folio at pfn " + hex(f->head_pfn) + ": not comparable: " + c.incompatible[0]);
      }
    }
    std::string note_text;
    for (const std::string& n : notes) {
      note_text += "; note: " + n;
    }
    SetupVerdict judged = finish(SetupVerdict{size, VerdictStatus::k_fail, "", v.details}, problems,
                                 std::to_string(compared) + " tail struct pages of " +
                                     std::to_string(s.size()) + " " + size + " folio(s) " +
                                     (notes.empty() ? "identical to the base kernel's"
                                                    : "equal to the base kernel's but for the "
                                                      "notes"));
    judged.summary += note_text;
    verdicts.push_back(std::move(judged));
  }
  return verdicts;
}

}  // namespace kseries::oracle
