#include "oracle/invariants.h"

#include <gtest/gtest.h>

#include <cstring>

#include "oracle/normalise.h"
#include "oracle/synthetic_dump.h"

namespace kseries::oracle {
namespace {

void poke(MemmapDump& dump, uint64_t pfn, size_t offset, uint64_t value, size_t size) {
  std::string page(*dump.page(pfn));
  std::memcpy(page.data() + offset, &value, size);
  dump.set_page(pfn, page);
}

const InvariantViolation* find_rule(const InvariantReport& report, const std::string& rule) {
  for (const InvariantViolation& v : report.violations) {
    if (v.rule == rule) {
      return &v;
    }
  }
  return nullptr;
}

TEST(OracleInvariants, A612DumpPassesForEveryGeometryAndType) {
  for (uint64_t shift : {0, 9}) {
    for (PgmapType type :
         {PgmapType::k_generic, PgmapType::k_fs_dax, PgmapType::k_private, PgmapType::k_coherent}) {
      SyntheticSpec spec;
      spec.vmemmap_shift = shift;
      spec.type = type;
      spec.prefix_pages = 3;
      const InvariantReport r = check_invariants(make_synthetic_dump(spec));
      EXPECT_TRUE(r.ok()) << "shift " << shift << " type " << static_cast<int>(type) << "\n"
                          << format_invariants(r);
      EXPECT_EQ(r.pages_checked, spec.nr_pages);
    }
  }
}

TEST(OracleInvariants, RefcountFollowsThePgmapType) {
  SyntheticSpec spec;
  spec.type = PgmapType::k_private;
  MemmapDump dump = make_synthetic_dump(spec);
  poke(dump, 0x100200, 0x34, 1, 4);  // a head with refcount 1: wrong for DEVICE_PRIVATE
  const InvariantReport r = check_invariants(dump);
  const InvariantViolation* v = find_rule(r, "refcount");
  ASSERT_NE(v, nullptr) << format_invariants(r);
  EXPECT_EQ(v->first_pfn, 0x100200U);
  EXPECT_EQ(v->first_detail, "is 1, should be 0");
}

TEST(OracleInvariants, UnwrittenPageIsDetectedThroughThePoison) {
  MemmapDump dump = make_synthetic_dump({});
  dump.set_page(0x100201, std::string(64, '\xc3'));
  const InvariantReport r = check_invariants(dump);
  const InvariantViolation* v = find_rule(r, "never written (poison)");
  ASSERT_NE(v, nullptr) << format_invariants(r);
  EXPECT_EQ(v->first_pfn, 0x100201U);
  EXPECT_EQ(v->first_position, "tail 1 of head 0x100200");
  EXPECT_EQ(v->count, 1U);
}

TEST(OracleInvariants, PoisonIsNotReportedWhenTheRangeWasNotPoisoned) {
  SyntheticSpec spec;
  spec.poisoned = false;
  MemmapDump dump = make_synthetic_dump(spec);
  const InvariantReport r = check_invariants(dump);
  EXPECT_TRUE(r.ok());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("not poisoned"), std::string::npos);
}

TEST(OracleInvariants, TailTwoWithAnInitialisedDeferredListIsTheLateHeadPrep) {
  // What the 7.2 ordering (prep_compound_head() after the loop) leaves.
  MemmapDump dump = make_synthetic_dump({});
  for (uint64_t head = 0x100000; head < 0x100000 + 4 * 512; head += 512) {
    const uint64_t self = page_address(dump.header(), head + 2) + 0x10;
    poke(dump, head + 2, 0x10, self, 8);
    poke(dump, head + 2, 0x18, self, 8);
  }
  const InvariantReport r = check_invariants(dump);
  const InvariantViolation* v = find_rule(r, "tail 2 order");
  ASSERT_NE(v, nullptr) << format_invariants(r);
  EXPECT_EQ(v->count, 4U);
  EXPECT_EQ(v->field, "_deferred_list.next");
}

TEST(OracleInvariants, OrderAndNrPagesInTailOne) {
  MemmapDump dump = make_synthetic_dump({});
  poke(dump, 0x100001, 0x20, 256, 4);
  poke(dump, 0x100001, 0x0, 0xc000000000002008ULL, 8);
  const InvariantReport r = check_invariants(dump);
  ASSERT_NE(find_rule(r, "nr_pages"), nullptr) << format_invariants(r);
  ASSERT_NE(find_rule(r, "order"), nullptr) << format_invariants(r);
}

TEST(OracleInvariants, SectionBitsMustFollowThePfn) {
  SyntheticSpec spec;
  spec.section_in_page_flags = true;
  spec.vmemmap_shift = 0;
  spec.init_start_pfn = 0x7fff0;  // crosses the section boundary at 0x80000
  spec.nr_pages = 32;
  MemmapDump dump = make_synthetic_dump(spec);
  ASSERT_TRUE(check_invariants(dump).ok());
  // A template copied from the first section and not refreshed per PFN.
  const std::string first(*dump.page(0x7fff0));
  for (uint64_t pfn = 0x80000; pfn < 0x80010; ++pfn) {
    dump.set_page(pfn, first);
  }
  const InvariantReport r = check_invariants(dump);
  const InvariantViolation* v = find_rule(r, "section bits");
  ASSERT_NE(v, nullptr) << format_invariants(r);
  EXPECT_EQ(v->count, 16U);
  EXPECT_EQ(v->first_pfn, 0x80000U);
  EXPECT_EQ(v->first_detail, "section 15, the PFN's section is 16");
}

TEST(OracleInvariants, VirtualMustBeTheDirectMapAddress) {
  SyntheticSpec spec;
  spec.want_page_virtual = true;
  MemmapDump dump = make_synthetic_dump(spec);
  ASSERT_TRUE(check_invariants(dump).ok()) << format_invariants(check_invariants(dump));
  dump.set_page(0x100011, std::string(*dump.page(0x100010)));  // virtual not refreshed
  const InvariantReport r = check_invariants(dump);
  const InvariantViolation* v = find_rule(r, "virtual");
  ASSERT_NE(v, nullptr) << format_invariants(r);
  EXPECT_EQ(v->first_pfn, 0x100011U);
}

}  // namespace
}  // namespace kseries::oracle
