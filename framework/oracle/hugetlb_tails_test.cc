#include "oracle/hugetlb_tails.h"

#include <gtest/gtest.h>

#include <cstring>

#include "oracle/normalise.h"
#include "oracle/sha256.h"
#include "oracle/synthetic_dump.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::oracle {
namespace {

void put(std::string& page, uint64_t at, uint64_t value, size_t size) {
  std::memcpy(page.data() + at, &value, size);
}

// The header of a dump_range dump (no device words), x86-64 layout; with
// SECTIONS, section bits in page->flags and 1 MiB sections (pfn_section_shift
// 8) so that a 2 MiB folio spans two of them.
DumpHeader range_header(bool sections) {
  SyntheticSpec spec;
  spec.section_in_page_flags = sections;
  DumpHeader h = make_synthetic_dump(spec).header();
  for (Word w : {Word::k_pgmap_addr, Word::k_pgmap_type, Word::k_pgmap_flags,
                 Word::k_range_start_pfn, Word::k_range_end_pfn, Word::k_altmap_valid,
                 Word::k_poisoned, Word::k_tracepoint_on_at_init}) {
    h.set(w, k_absent);
  }
  if (sections) {
    h.set(Word::k_pfn_section_shift, 8);
  }
  return h;
}

uint64_t page_flags(const DumpHeader& h, uint64_t pfn) {
  uint64_t flags = 2ULL << h.get(Word::k_zones_pgshift);  // ZONE_NORMAL
  if (h.get(Word::k_section_in_page_flags) == 1) {
    flags |= ((pfn >> h.get(Word::k_pfn_section_shift)) & h.get(Word::k_sections_mask))
             << h.get(Word::k_sections_pgshift);
  }
  return flags;
}

// What 6.12's boot-time HugeTLB init leaves: a frozen head with PG_head, tails
// linked to it with refcount 0 and TAIL_MAPPING, the order in tail 1; the two
// neighbours are ordinary free pages.
std::string hugetlb_page(const DumpHeader& h, uint64_t head, unsigned order, uint64_t pfn) {
  std::string page(h.page_size(), '\0');
  const uint64_t n = 1ULL << order;
  const uint64_t flags = page_flags(h, pfn);
  put(page, h.get(Word::k_off_mapcount), 0xffffffffULL, 4);
  if (pfn < head || pfn >= head + n) {
    put(page, h.get(Word::k_off_flags), flags, 8);
    put(page, h.get(Word::k_off_lru), 0xffff888000123400ULL + pfn, 8);  // some free list
    return page;
  }
  if (pfn == head) {
    put(page, h.get(Word::k_off_flags), flags | (1ULL << h.get(Word::k_pg_head)), 8);
    put(page, h.get(Word::k_off_lru), 0xffffffff82a00000ULL, 8);  // the hstate free list
    return page;
  }
  put(page, h.get(Word::k_off_flags), pfn == head + 1 ? flags | order : flags, 8);
  put(page, h.get(Word::k_off_compound_head), page_address(h, head) + 1, 8);
  if (pfn == head + 1) {
    put(page, h.get(Word::k_off_large_mapcount), 0xffffffffULL, 4);
    put(page, h.get(Word::k_off_entire_mapcount), 0xffffffffULL, 4);
    put(page, h.get(Word::k_off_folio_nr_pages), n, 4);
  } else {
    put(page, h.get(Word::k_off_mapping), h.get(Word::k_tail_mapping), 8);
  }
  return page;
}

HugeFolio make_folio(uint64_t head, unsigned order, bool sections) {
  DumpHeader h = range_header(sections);
  const uint64_t n = 1ULL << order;
  h.set(Word::k_dump_start_pfn, head - 1);
  h.set(Word::k_dump_end_pfn, head + n + 1);
  std::vector<PageRun> runs;
  for (uint64_t pfn = head - 1; pfn < head + n + 1; ++pfn) {
    std::string page = hugetlb_page(h, head, order, pfn);
    if (!runs.empty() && runs.back().bytes == page) {
      ++runs.back().count;
    } else {
      runs.push_back({pfn, 1, std::move(page)});
    }
  }
  HugeFolio folio;
  folio.size = order == 9 ? "2M" : "1G";
  folio.head_pfn = head;
  folio.order = order;
  folio.dump = MemmapDump(std::move(h), std::move(runs));
  set_folio_geometry(folio.dump, head, order);
  return folio;
}

HugetlbDumps two_folios(bool sections) {
  HugetlbDumps d;
  d.folios.push_back(make_folio(0x1000, 9, sections));
  d.folios.push_back(make_folio(0x1200, 9, sections));
  d.folios[1].index = 1;
  return d;
}

TEST(HugetlbTails, CorrectFoliosPass) {
  const auto verdicts = judge_hugetlb_tails(two_folios(true));
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].setup, "2M");
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_pass)
      << verdicts[0].summary << verdicts[0].details;
  EXPECT_NE(verdicts[0].summary.find("2 2M folio(s), 1022 tails"), std::string::npos)
      << verdicts[0].summary;
  EXPECT_NE(verdicts[0].summary.find("section bits per PFN"), std::string::npos);
}

TEST(HugetlbTails, WriteAfterTheFolioIsCaught) {
  // HugeTLB v2 with an empty range [N, N): the page after the folio becomes
  // one of its tails.
  HugetlbDumps d = two_folios(false);
  HugeFolio& f = d.folios[0];
  const DumpHeader& h = f.dump.header();
  std::string after = std::string(*f.dump.page(0x1200));
  put(after, h.get(Word::k_off_compound_head), page_address(h, 0x1000) + 1, 8);
  f.dump.set_page(0x1200, after);
  d.empty_range_folio = 0x1000;
  const auto verdicts = judge_hugetlb_tails(d);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_fail);
  EXPECT_NE(verdicts[0].summary.find("written outside the folio (compound_head) at pfn 0x1200"),
            std::string::npos)
      << verdicts[0].summary;
  EXPECT_NE(verdicts[0].details.find("initialised by the test hook"), std::string::npos);
}

TEST(HugetlbTails, StaleSectionBitsInTheSecondSectionAreCaught) {
  // A template copied from the first tail without refreshing the section:
  // every tail in the folio's second section (pfn 0x1100 on) keeps section 0x10.
  HugetlbDumps d = two_folios(true);
  HugeFolio& f = d.folios[0];
  const DumpHeader h = f.dump.header();
  for (uint64_t pfn = 0x1100; pfn < 0x1200; ++pfn) {
    std::string page = std::string(*f.dump.page(pfn));
    put(page, h.get(Word::k_off_flags), page_flags(h, 0x1001), 8);
    f.dump.set_page(pfn, page);
  }
  const auto verdicts = judge_hugetlb_tails(d);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_fail);
  EXPECT_NE(verdicts[0].summary.find("section bits follow the PFN (flags) at pfn 0x1100 (tail 256 "
                                     "of head 0x1000): section 16"),
            std::string::npos)
      << verdicts[0].summary;
}

TEST(HugetlbTails, OneByteInATailIsNamedAgainstTheBase) {
  const HugetlbDumps base = two_folios(false);
  HugetlbDumps series = two_folios(false);
  HugeFolio& f = series.folios[1];
  std::string page = std::string(*f.dump.page(0x1237));
  page[f.dump.header().get(Word::k_off_mapping)] ^= 0x01;
  f.dump.set_page(0x1237, page);
  const auto verdicts = judge_hugetlb_vs_base(base, series);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_fail);
  EXPECT_NE(verdicts[0].summary.find("1 tail(s), first: field mapping at pfn 0x1237 (tail 55 of "
                                     "head 0x1200)"),
            std::string::npos)
      << verdicts[0].summary;
  // And the single-kernel check names the same page.
  const auto alone = judge_hugetlb_tails(series);
  EXPECT_NE(alone[0].summary.find("TAIL_MAPPING (mapping) at pfn 0x1237"), std::string::npos)
      << alone[0].summary;
}

TEST(HugetlbTails, IdenticalTailsPassAndHeadsAreNotCompared) {
  const HugetlbDumps base = two_folios(true);
  HugetlbDumps series = two_folios(true);
  // A head's lru points into the kernel's free lists: differs between kernels.
  HugeFolio& f = series.folios[0];
  std::string head = std::string(*f.dump.page(0x1000));
  put(head, f.dump.header().get(Word::k_off_lru), 0xffffffff82b00000ULL, 8);
  f.dump.set_page(0x1000, head);
  const auto verdicts = judge_hugetlb_vs_base(base, series);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_pass) << verdicts[0].summary;
  EXPECT_NE(verdicts[0].summary.find("1022 tail struct pages of 2 2M folio(s)"), std::string::npos)
      << verdicts[0].summary;
}

// Boot-time gigantic pages' tails read by set_zone_contiguous() before
// hugetlb initialised them: identical final struct pages, a zone that is no
// longer contiguous. Measures as the guest sends them.
TEST(HugetlbTails, AZoneTheSeriesLeftNotContiguousIsNamed) {
  const auto zones = [](int normal) {
    return guest::parse_protocol(
        "KSERIES measure setup=zones iter=0 metric=zone_contiguous value=0 unit=flag zone=DMA\n"
        "KSERIES measure setup=zones iter=1 metric=zone_contiguous value=" +
        std::to_string(normal) + " unit=flag zone=Normal\n");
  };
  testing::TempDir dir;
  write_file(dir.path() / "bulk.img", std::string(4096, '\0'));
  HugetlbDumps base = two_folios(true);
  HugetlbDumps series = two_folios(true);
  base.zone_contiguous = collect_hugetlb_dumps(zones(1), dir.path() / "bulk.img").zone_contiguous;
  ASSERT_EQ(base.zone_contiguous.size(), 2u);
  EXPECT_TRUE(base.zone_contiguous.at("Normal"));
  series.zone_contiguous = base.zone_contiguous;
  auto verdicts = judge_hugetlb_vs_base(base, series);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_pass) << verdicts[0].summary;
  series.zone_contiguous = collect_hugetlb_dumps(zones(0), dir.path() / "bulk.img").zone_contiguous;
  verdicts = judge_hugetlb_vs_base(base, series);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_fail);
  EXPECT_NE(verdicts[0].summary.find("zone Normal is not contiguous after boot, the base kernel's "
                                     "is (set_zone_contiguous()"),
            std::string::npos)
      << verdicts[0].summary;
  // A side that did not report its zones (an older guest) compares nothing.
  series.zone_contiguous.clear();
  EXPECT_EQ(judge_hugetlb_vs_base(base, series)[0].status, VerdictStatus::k_pass);
}

// INIT_LIST_HEAD(&page->lru) then prep_compound_tail(): lru.prev still
// points at the page's own lru (base); a template copy points at the
// template source's (series).
void set_lru_prev(HugeFolio& f, uint64_t from, uint64_t to, uint64_t points_at_pfn) {
  const DumpHeader h = f.dump.header();
  for (uint64_t pfn = from; pfn < to; ++pfn) {
    std::string page = std::string(*f.dump.page(pfn));
    const uint64_t target = points_at_pfn ? points_at_pfn : pfn;
    put(page, h.get(Word::k_off_lru) + 8, page_address(h, target) + h.get(Word::k_off_lru), 8);
    f.dump.set_page(pfn, page);
  }
}

TEST(HugetlbTails, ACopiedEmptyListHeadIsANoteAnythingElseFails) {
  HugetlbDumps base = two_folios(false);
  HugetlbDumps series = two_folios(false);
  set_lru_prev(base.folios[0], 0x1003, 0x1200, 0);
  set_lru_prev(series.folios[0], 0x1003, 0x1040, 0);
  set_lru_prev(series.folios[0], 0x1040, 0x1041, 0);
  set_lru_prev(series.folios[0], 0x1041, 0x1200, 0x1040);  // copies of tail 64's
  auto verdicts = judge_hugetlb_vs_base(base, series);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_pass) << verdicts[0].summary;
  EXPECT_NE(verdicts[0].summary.find("note: folio at pfn 0x1000: lru.prev of 447 tail(s) is tail "
                                     "64's own address+8"),
            std::string::npos)
      << verdicts[0].summary;
  // Pointing into the other folio is no copied list head: a real difference.
  set_lru_prev(series.folios[0], 0x1041, 0x1200, 0x1240);
  verdicts = judge_hugetlb_vs_base(base, series);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_fail) << verdicts[0].summary;
  EXPECT_NE(verdicts[0].summary.find("field lru.prev at pfn 0x1041 (tail 65 of head 0x1000)"),
            std::string::npos)
      << verdicts[0].summary;
}

TEST(HugetlbTails, AFolioMissingOnTheSeriesIsNamed) {
  const HugetlbDumps base = two_folios(false);
  HugetlbDumps series = two_folios(false);
  series.folios.pop_back();
  const auto verdicts = judge_hugetlb_vs_base(base, series);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_fail);
  EXPECT_NE(verdicts[0].summary.find("the base kernel has 2 2M HugeTLB folio(s), the series 1 "
                                     "(not a HugeTLB head on the series: pfn 0x1200)"),
            std::string::npos)
      << verdicts[0].summary;
}

TEST(HugetlbTails, CollectsBlobsWithTheModulesGeometryAndTheHookMeasure) {
  // As the guest sends them: huge-<size>-<index> blobs on the bulk disk, the
  // folio geometry in the header (init range, vmemmap_shift), the hook's pfn.
  testing::TempDir dir;
  HugeFolio folio = make_folio(0x1000, 9, false);
  const std::string good = encode_memmap_dump(folio.dump);
  MemmapDump headless = folio.dump;
  headless.header().set(Word::k_init_start_pfn, k_absent);
  const std::string bad = encode_memmap_dump(headless);
  std::string disk(good.size() + bad.size() + 8192, '\0');
  const size_t bad_at = (good.size() + 4095) / 4096 * 4096;
  disk.replace(0, good.size(), good);
  disk.replace(bad_at, bad.size(), bad);
  write_file(dir.path() / "bulk.img", disk);
  const std::string log =
      "KSERIES measure setup=hook iter=0 metric=empty_range_folio value=4096 unit=pfn\n"
      "KSERIES blob name=huge-2M-0 offset=0 size=" +
      std::to_string(good.size()) + " sha256=" + sha256_hex(good) +
      "\nKSERIES blob name=huge-1G-0 offset=" + std::to_string(bad_at) +
      " size=" + std::to_string(bad.size()) + " sha256=" + sha256_hex(bad) + "\n";
  const HugetlbDumps d = collect_hugetlb_dumps(guest::parse_protocol(log), dir.path() / "bulk.img");
  ASSERT_EQ(d.folios.size(), 1u);
  EXPECT_EQ(d.folios[0].size, "2M");
  EXPECT_EQ(d.folios[0].head_pfn, 0x1000u);
  EXPECT_EQ(d.folios[0].order, 9u);
  ASSERT_TRUE(d.empty_range_folio.has_value());
  EXPECT_EQ(*d.empty_range_folio, 0x1000u);
  ASSERT_EQ(d.errors.count("1G"), 1u);
  EXPECT_NE(d.errors.at("1G").find("huge-1G-0: the dump"), std::string::npos) << d.errors.at("1G");
  // A size whose blob failed is a failing verdict, not a silent pass.
  const auto verdicts = judge_hugetlb_tails(d);
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_pass) << verdicts[0].summary;
  EXPECT_EQ(verdicts[1].setup, "1G");
  EXPECT_EQ(verdicts[1].status, VerdictStatus::k_fail);
}

TEST(HugetlbTails, SliceKeepsOnlyTheRange) {
  const HugeFolio f = make_folio(0x1000, 9, false);
  const MemmapDump s = slice_dump(f.dump, 0x1001, 0x1200);
  EXPECT_EQ(s.start_pfn(), 0x1001u);
  EXPECT_EQ(s.end_pfn(), 0x1200u);
  EXPECT_FALSE(s.page(0x1000).has_value());
  EXPECT_EQ(*s.page(0x1100), *f.dump.page(0x1100));
}

}  // namespace
}  // namespace kseries::oracle
