// The oracle at every struct page size x86-64 6.12 has: 64 bytes, 80
// (KMSAN, or MEMCG with an out-of-flags _last_cpupid) and 96 (both). The
// dump format, the field map and the comparisons read the size and the
// offsets from the dump header; these tests hold them to every byte,
// padding included (the slow path's mm_zero_struct_page() zeroes the whole
// struct page, so a copy that leaves bytes unwritten differs).

#include <gtest/gtest.h>

#include <algorithm>

#include "oracle/dump_compare.h"
#include "oracle/equivalence.h"
#include "oracle/invariants.h"
#include "oracle/memmap_dump.h"
#include "oracle/page_layout.h"
#include "oracle/synthetic_dump.h"

namespace kseries::oracle {
namespace {

SyntheticSpec cpupid80() {
  SyntheticSpec s;
  s.memcg = true;
  s.last_cpupid = true;
  return s;
}

SyntheticSpec kmsan80() {
  SyntheticSpec s;
  s.kmsan = true;
  return s;
}

SyntheticSpec both96() {
  SyntheticSpec s = cpupid80();
  s.kmsan = true;
  return s;
}

// PFN's struct page as a copy of its first COPIED bytes would leave it:
// the rest keeps FILL (the module's poison, or a previous bind's bytes).
std::string short_copy(const MemmapDump& dump, uint64_t pfn, size_t copied, char fill) {
  std::string page(*dump.page(pfn));
  for (size_t b = copied; b < page.size(); ++b) {
    page[b] = fill;
  }
  return page;
}

// Every page of DUMP's init range copied short, as a fixed-size copy of the
// wrong size would do on the fast path.
MemmapDump with_short_copies(const MemmapDump& dump, size_t copied, char fill) {
  MemmapDump out = dump;
  const DumpHeader& h = dump.header();
  for (uint64_t pfn = h.get(Word::k_init_start_pfn); pfn < h.get(Word::k_init_end_pfn); ++pfn) {
    out.set_page(pfn, short_copy(dump, pfn, copied, fill));
  }
  return out;
}

std::vector<std::string> group_fields(const Comparison& c) {
  std::vector<std::string> names;
  for (const MismatchGroup& g : c.groups) {
    if (std::find(names.begin(), names.end(), g.field) == names.end()) {
      names.push_back(g.field);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OraclePageSizes, LayoutsHaveTheKernelsSizes) {
  EXPECT_EQ(synthetic_page_size({}), 64U);
  EXPECT_EQ(synthetic_page_size(cpupid80()), 80U);
  EXPECT_EQ(synthetic_page_size(kmsan80()), 80U);
  EXPECT_EQ(synthetic_page_size(both96()), 96U);
  SyntheticSpec memcg;
  memcg.memcg = true;
  EXPECT_EQ(synthetic_page_size(memcg), 64U);
  SyntheticSpec cpupid_no_memcg;
  cpupid_no_memcg.last_cpupid = true;  // fits in the 8 bytes MEMCG=n leaves
  EXPECT_EQ(synthetic_page_size(cpupid_no_memcg), 64U);
}

// The field map covers each byte exactly once, and names the bytes past 64.
TEST(OraclePageSizes, FieldMapCoversEveryByteAtEverySize) {
  for (const SyntheticSpec& spec : {SyntheticSpec{}, cpupid80(), kmsan80(), both96()}) {
    const MemmapDump dump = make_synthetic_dump(spec);
    for (PageRole role : {PageRole::k_outside, PageRole::k_head, PageRole::k_tail_1,
                          PageRole::k_tail_2, PageRole::k_tail}) {
      const std::vector<Field> fields = fields_for(dump.header(), role);
      size_t next = 0;
      for (const Field& f : fields) {
        EXPECT_EQ(f.offset, next) << f.name << " in " << role_name(role) << " at size "
                                  << dump.header().page_size();
        next = f.offset + f.size;
      }
      EXPECT_EQ(next, dump.header().page_size()) << role_name(role);
    }
  }
  const DumpHeader h80 = make_synthetic_dump(cpupid80()).header();
  EXPECT_EQ(field_at(h80, PageRole::k_tail, 0x38), "memcg_data");
  EXPECT_EQ(field_at(h80, PageRole::k_tail, 64), "_last_cpupid");
  EXPECT_EQ(field_at(h80, PageRole::k_tail, 67), "_last_cpupid");
  EXPECT_EQ(field_at(h80, PageRole::k_tail, 68), "padding+68");
  EXPECT_EQ(field_at(h80, PageRole::k_tail, 79), "padding+68");
  const DumpHeader k80 = make_synthetic_dump(kmsan80()).header();
  EXPECT_EQ(field_at(k80, PageRole::k_head, 0x38), "kmsan_shadow");
  EXPECT_EQ(field_at(k80, PageRole::k_head, 0x40), "kmsan_origin");
  EXPECT_EQ(field_at(k80, PageRole::k_head, 0x48), "padding+72");
  const DumpHeader h96 = make_synthetic_dump(both96()).header();
  EXPECT_EQ(field_at(h96, PageRole::k_single, 68), "padding+68");
  EXPECT_EQ(field_at(h96, PageRole::k_single, 72), "kmsan_shadow");
  EXPECT_EQ(field_at(h96, PageRole::k_single, 80), "kmsan_origin");
  EXPECT_EQ(field_at(h96, PageRole::k_single, 88), "padding+88");
  EXPECT_EQ(field_at(h96, PageRole::k_single, 95), "padding+88");
}

TEST(OraclePageSizes, DumpsRoundTripAt80And96Bytes) {
  for (const SyntheticSpec& spec : {cpupid80(), kmsan80(), both96()}) {
    const MemmapDump dump = make_synthetic_dump(spec);
    const std::string bytes = encode_memmap_dump(dump);
    const MemmapDump back = parse_memmap_dump(bytes);
    EXPECT_EQ(back.header().page_size(), dump.header().page_size());
    EXPECT_EQ(back.header().get(Word::k_off_last_cpupid),
              dump.header().get(Word::k_off_last_cpupid));
    EXPECT_EQ(back.header().get(Word::k_off_kmsan_origin),
              dump.header().get(Word::k_off_kmsan_origin));
    for (uint64_t pfn = dump.start_pfn(); pfn < dump.end_pfn(); pfn += 37) {
      ASSERT_EQ(*back.page(pfn), *dump.page(pfn)) << pfn;
    }
    EXPECT_EQ(encode_memmap_dump(back), bytes);
  }
}

// Dumps of the module before the KMSAN words (60 header words) read them as
// absent: no kmsan_* field, the bytes keep their old names.
TEST(OraclePageSizes, SixtyWordDumpsHaveNoKmsanOffsets) {
  EXPECT_EQ(word_name(Word::k_off_kmsan_shadow), "off_kmsan_shadow");
  EXPECT_EQ(word_name(Word::k_off_kmsan_origin), "off_kmsan_origin");
  MemmapDump dump = make_synthetic_dump({});
  dump.header().words.resize(static_cast<size_t>(Word::k_tail_mapping) + 1);
  const MemmapDump back = parse_memmap_dump(encode_memmap_dump(dump));
  EXPECT_TRUE(back.header().has(Word::k_tail_mapping));
  EXPECT_FALSE(back.header().has(Word::k_off_kmsan_shadow));
  EXPECT_EQ(field_at(back.header(), PageRole::k_head, 0x38), "padding+56");
  const MemmapDump kmsan = make_synthetic_dump(kmsan80());
  const MemmapDump again = parse_memmap_dump(encode_memmap_dump(kmsan));
  EXPECT_EQ(again.header().get(Word::k_off_kmsan_shadow), 0x38U);
  EXPECT_EQ(again.header().get(Word::k_off_kmsan_origin), 0x40U);
}

TEST(OraclePageSizes, CorrectDumpsPassInvariantsAndCompareEqual) {
  for (const SyntheticSpec& spec : {cpupid80(), kmsan80(), both96()}) {
    for (uint64_t shift : {0ULL, 9ULL}) {
      SyntheticSpec s = spec;
      s.vmemmap_shift = shift;
      const MemmapDump dump = make_synthetic_dump(s);
      const InvariantReport r = check_invariants(dump);
      EXPECT_TRUE(r.ok()) << format_invariants(r);
      const Comparison c = compare_dumps(dump, make_synthetic_dump(s));
      EXPECT_TRUE(c.equal()) << format_comparison(c);
    }
  }
}

// v10 8/8's fixed-size copy with the 80-byte case copying 64 bytes: the
// last 16 bytes of every struct page keep the module's poison.
TEST(OraclePageSizes, A64ByteCopyOfAn80BytePageIsCaughtByFieldAndPadding) {
  const MemmapDump slow = make_synthetic_dump(cpupid80());
  const MemmapDump fast = with_short_copies(slow, 64, '\xc3');
  const Comparison c = compare_dumps(slow, fast);
  EXPECT_FALSE(c.equal());
  EXPECT_EQ(c.pages_differing, 4U * 512);
  EXPECT_EQ(group_fields(c), (std::vector<std::string>{"_last_cpupid", "padding+68"}))
      << format_comparison(c);
  for (const MismatchGroup& g : c.groups) {
    EXPECT_EQ(g.actual_text, "poison (never written)") << g.field;
  }
  const std::string text = format_comparison(c);
  EXPECT_NE(text.find("field _last_cpupid: expected 2097151 (0x1fffff) [ff ff 1f 00], actual "
                      "poison (never written) [c3 c3 c3 c3]"),
            std::string::npos)
      << text;
  // The invariants see the same from the fast dump alone.
  const InvariantReport r = check_invariants(fast);
  ASSERT_FALSE(r.ok());
  std::vector<std::string> fields;
  for (const InvariantViolation& v : r.violations) {
    fields.push_back(v.field);
  }
  std::sort(fields.begin(), fields.end());
  fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
  EXPECT_EQ(fields, (std::vector<std::string>{"_last_cpupid", "padding+68"}))
      << format_invariants(r);
}

// The same bug on KMSAN's 80-byte layout (no MEMCG: kmsan_shadow at 0x38,
// kmsan_origin at 0x40): what known-bad/copy80-short does on the kmsan target.
TEST(OraclePageSizes, A64ByteCopyOfAKmsanPageLeavesKmsanOriginAndPadding) {
  for (uint64_t shift : {0ULL, 9ULL}) {
    SyntheticSpec spec = kmsan80();
    spec.vmemmap_shift = shift;
    const MemmapDump slow = make_synthetic_dump(spec);
    const MemmapDump fast = with_short_copies(slow, 64, '\xc3');
    const Comparison c = compare_dumps(slow, fast);
    EXPECT_EQ(group_fields(c), (std::vector<std::string>{"kmsan_origin", "padding+72"}))
        << format_comparison(c);
    EXPECT_EQ(c.pages_differing, 4U * 512);
    SetupDumps d;
    d.setup = shift ? "devdax-mem" : "fsdax-mem";
    d.slow = slow;
    d.slow->header().set(Word::k_tracepoint_on_at_init, 1);
    d.slow_trace_events = 4U * 512;
    d.fast = fast;
    d.unwritten = slow;
    d.unwritten->header().set(Word::k_unwritten_pfn, 0x100201);
    d.unwritten->set_page(0x100201, std::string(80, '\xc3'));
    const SetupVerdict v = judge_setup(d);
    EXPECT_EQ(v.status, VerdictStatus::k_fail);
    // The words known-bad/copy80-short's expect file holds.
    EXPECT_NE(v.summary.find("fast path differs from slow path: 2048 page(s), first: field"),
              std::string::npos)
        << v.summary;
    d.fast = slow;
    EXPECT_EQ(judge_setup(d).status, VerdictStatus::k_pass) << judge_setup(d).summary;
  }
}

// The same short copy without poison (the previous bind's bytes, here the
// non-zero pattern 0x5a): only the byte comparison with the slow path, which
// zeroes the padding, can see it.
TEST(OraclePageSizes, SixteenUnwrittenBytesOfStaleStateDifferEvenInPadding) {
  const MemmapDump slow = make_synthetic_dump(both96());
  const MemmapDump fast = with_short_copies(slow, 80, '\x5a');  // the 96-byte case copying 80
  const Comparison c = compare_dumps(slow, fast);
  EXPECT_EQ(group_fields(c), (std::vector<std::string>{"kmsan_origin", "padding+88"}))
      << format_comparison(c);
  for (const MismatchGroup& g : c.groups) {
    if (g.field == "padding+88") {
      EXPECT_EQ(g.expected, "00 00 00 00 00 00 00 00");
      EXPECT_EQ(g.actual, "5a 5a 5a 5a 5a 5a 5a 5a");
    }
  }
  // Padding alone: one stale byte in the 12 bytes after _last_cpupid.
  const MemmapDump slow80 = make_synthetic_dump(cpupid80());
  MemmapDump fast80 = slow80;
  std::string page(*slow80.page(0x100203));
  page[75] = 0x01;
  fast80.set_page(0x100203, page);
  const Comparison one = compare_dumps(slow80, fast80);
  ASSERT_EQ(one.groups.size(), 1U) << format_comparison(one);
  EXPECT_EQ(one.groups[0].field, "padding+68");
  EXPECT_EQ(one.groups[0].first_position, "tail 3 of head 0x100200");
}

// A 96-byte page copied as 80 bytes into poisoned memory (the 16 bytes
// kmsan_origin + padding+88 never written), and the same with a 64-byte copy.
TEST(OraclePageSizes, ShortCopiesOfA96BytePageNameEveryFieldLeftOut) {
  const MemmapDump slow = make_synthetic_dump(both96());
  EXPECT_EQ(group_fields(compare_dumps(slow, with_short_copies(slow, 64, '\xc3'))),
            (std::vector<std::string>{"_last_cpupid", "kmsan_origin", "kmsan_shadow", "padding+68",
                                      "padding+88"}));
}

TEST(OraclePageSizes, EquivalenceVerdictAt80Bytes) {
  SetupDumps d;
  d.setup = "devdax-mem";
  d.slow = make_synthetic_dump(cpupid80());
  d.slow->header().set(Word::k_tracepoint_on_at_init, 1);
  // 80 bytes is not a power of two: no vmemmap optimisation, every PFN written.
  EXPECT_EQ(min_slow_path_events(*d.slow), 4U * 512);
  d.slow_trace_events = 4U * 512;
  d.fast = make_synthetic_dump(cpupid80());
  d.unwritten = make_synthetic_dump(cpupid80());
  d.unwritten->header().set(Word::k_unwritten_pfn, 0x100201);
  d.unwritten->set_page(0x100201, std::string(80, '\xc3'));
  const SetupVerdict pass = judge_setup(d);
  EXPECT_EQ(pass.status, VerdictStatus::k_pass) << pass.summary << "\n" << pass.details;

  d.slow_trace_events = 4U * 128;  // enough for a 64-byte page's optimised vmemmap only
  EXPECT_EQ(judge_setup(d).status, VerdictStatus::k_fail);
  d.slow_trace_events = 4U * 512;

  d.fast = with_short_copies(make_synthetic_dump(cpupid80()), 64, '\xc3');
  const SetupVerdict fail = judge_setup(d);
  EXPECT_EQ(fail.status, VerdictStatus::k_fail);
  EXPECT_NE(fail.details.find("padding+68"), std::string::npos) << fail.details;

  SetupDumps base = d;
  base.fast = make_synthetic_dump(cpupid80());
  const SetupVerdict vs = judge_vs_base(base, d);
  EXPECT_EQ(vs.status, VerdictStatus::k_fail);
  EXPECT_NE(vs.details.find("_last_cpupid"), std::string::npos) << vs.details;
  EXPECT_EQ(judge_vs_base(base, base).status, VerdictStatus::k_pass);
}

TEST(OraclePageSizes, DumpsOfDifferentLayoutsAreNotComparable) {
  const Comparison size = compare_dumps(make_synthetic_dump({}), make_synthetic_dump(cpupid80()));
  ASSERT_FALSE(size.incompatible.empty());
  EXPECT_NE(size.incompatible[0].find("sizeof_page: expected 0x40, actual 0x50"), std::string::npos)
      << size.incompatible[0];
  // Same size, other fields: KMSAN's 80 bytes against MEMCG + _last_cpupid's.
  const Comparison other =
      compare_dumps(make_synthetic_dump(kmsan80()), make_synthetic_dump(cpupid80()));
  std::string all;
  for (const std::string& line : other.incompatible) {
    all += line + "\n";
  }
  EXPECT_NE(all.find("off_last_cpupid"), std::string::npos) << all;
  EXPECT_NE(all.find("off_kmsan_shadow"), std::string::npos) << all;
  EXPECT_NE(all.find("off_memcg_data"), std::string::npos) << all;
}

}  // namespace
}  // namespace kseries::oracle
