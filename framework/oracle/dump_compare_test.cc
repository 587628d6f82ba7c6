#include "oracle/dump_compare.h"

#include <gtest/gtest.h>

#include "oracle/synthetic_dump.h"

namespace kseries::oracle {
namespace {

std::string with_byte(std::string_view page, size_t offset, char value) {
  std::string copy(page);
  copy[offset] = value;
  return copy;
}

TEST(OracleCompare, IdenticalDumpsCompareEqual) {
  const MemmapDump a = make_synthetic_dump({});
  const Comparison c = compare_dumps(a, make_synthetic_dump({}));
  EXPECT_TRUE(c.equal()) << format_comparison(c);
  EXPECT_EQ(c.pages_compared, 4U * 512);
}

TEST(OracleCompare, PgmapAddressIsNormalisedAway) {
  SyntheticSpec other;
  other.pgmap_addr = 0xffff888100001000ULL;  // another bind, another pgmap
  const Comparison c = compare_dumps(make_synthetic_dump({}), make_synthetic_dump(other));
  EXPECT_TRUE(c.equal()) << format_comparison(c);
}

TEST(OracleCompare, OneByteInATailPageIsReportedWithFieldPfnAndTailIndex) {
  const MemmapDump expected = make_synthetic_dump({});
  MemmapDump actual = make_synthetic_dump({});
  const uint64_t pfn = 0x100000 + 512 + 1;  // tail 1 of the second compound page
  actual.set_page(pfn, with_byte(*actual.page(pfn), 0x20, 0x01));  // _folio_nr_pages low byte
  const Comparison c = compare_dumps(expected, actual);
  ASSERT_EQ(c.groups.size(), 1U) << format_comparison(c);
  const MismatchGroup& g = c.groups[0];
  EXPECT_EQ(g.field, "_folio_nr_pages");
  EXPECT_EQ(g.first_pfn, pfn);
  EXPECT_EQ(g.first_position, "tail 1 of head 0x100200");
  EXPECT_EQ(g.role, PageRole::k_tail_1);
  EXPECT_EQ(g.expected, "00 02 00 00");
  EXPECT_EQ(g.actual, "01 02 00 00");
  EXPECT_EQ(g.count, 1U);
  const std::string text = format_comparison(c);
  EXPECT_NE(text.find("pfn 0x100201 (tail 1 of head 0x100200) field _folio_nr_pages"),
            std::string::npos)
      << text;
}

TEST(OracleCompare, CorruptedDeepTailNamesItsIndex) {
  const MemmapDump expected = make_synthetic_dump({});
  MemmapDump actual = make_synthetic_dump({});
  const uint64_t pfn = 0x100000 + 3 * 512 + 77;
  actual.set_page(pfn, with_byte(*actual.page(pfn), 0x34, 0x01));  // _refcount 0 -> 1
  const Comparison c = compare_dumps(expected, actual);
  ASSERT_EQ(c.groups.size(), 1U);
  EXPECT_EQ(c.groups[0].field, "_refcount");
  EXPECT_EQ(c.groups[0].first_position, "tail 77 of head 0x100600");
  EXPECT_EQ(c.groups[0].expected_text, "0 (0x0)");
  EXPECT_EQ(c.groups[0].actual_text, "1 (0x1)");
}

TEST(OracleCompare, AnUnwrittenPageShowsAsPoisonInEveryField) {
  const MemmapDump expected = make_synthetic_dump({});
  MemmapDump actual = make_synthetic_dump({});
  actual.set_page(0x100402, std::string(64, '\xc3'));  // tail 2 the fast path forgot
  const Comparison c = compare_dumps(expected, actual);
  EXPECT_EQ(c.pages_differing, 1U);
  ASSERT_FALSE(c.groups.empty());
  for (const MismatchGroup& g : c.groups) {
    EXPECT_EQ(g.first_pfn, 0x100402U);
    EXPECT_EQ(g.actual_text, "poison (never written)") << g.field;
  }
  EXPECT_NE(format_comparison(c).find("field compound_head: expected own head|1"),
            std::string::npos)
      << format_comparison(c);
}

TEST(OracleCompare, GroupsCountPagesSharingAMismatch) {
  const MemmapDump expected = make_synthetic_dump({});
  MemmapDump actual = make_synthetic_dump({});
  // The same wrong refcount in tail 5 of every compound page, and one head.
  for (uint64_t head = 0x100000; head < 0x100000 + 4 * 512; head += 512) {
    actual.set_page(head + 5, with_byte(*actual.page(head + 5), 0x34, 0x07));
  }
  actual.set_page(0x100200, with_byte(*actual.page(0x100200), 0x34, 0x02));
  const Comparison c = compare_dumps(expected, actual);
  ASSERT_EQ(c.groups.size(), 2U) << format_comparison(c);
  EXPECT_EQ(c.groups[0].count, 4U);
  EXPECT_EQ(c.groups[0].role, PageRole::k_tail);
  EXPECT_EQ(c.groups[0].sample_pfns,
            (std::vector<uint64_t>{0x100005, 0x100205, 0x100405, 0x100605}));
  EXPECT_EQ(c.groups[1].count, 1U);
  EXPECT_EQ(c.groups[1].role, PageRole::k_head);
  EXPECT_EQ(c.pages_differing, 5U);
}

TEST(OracleCompare, TailLinkToTheWrongHeadIsNotNormalisedAway) {
  const MemmapDump expected = make_synthetic_dump({});
  MemmapDump actual = make_synthetic_dump({});
  // Tail 3 of the second compound page linked to the first head.
  std::string page(*actual.page(0x100203));
  page[9] = static_cast<char>(page[9] - 0x80);  // head address - 512 * 64
  actual.set_page(0x100203, page);
  const Comparison c = compare_dumps(expected, actual);
  ASSERT_EQ(c.groups.size(), 1U) << format_comparison(c);
  EXPECT_EQ(c.groups[0].field, "compound_head");
  EXPECT_EQ(c.groups[0].expected_text, "own head|1");
  EXPECT_EQ(c.groups[0].actual_text, "head at pfn-515|1");
}

TEST(OracleCompare, DifferentGeometryIsNotComparable) {
  SyntheticSpec order0;
  order0.vmemmap_shift = 0;
  const Comparison c = compare_dumps(make_synthetic_dump({}), make_synthetic_dump(order0));
  EXPECT_FALSE(c.equal());
  ASSERT_EQ(c.incompatible.size(), 1U);
  EXPECT_NE(c.incompatible[0].find("vmemmap_shift"), std::string::npos);
}

}  // namespace
}  // namespace kseries::oracle
