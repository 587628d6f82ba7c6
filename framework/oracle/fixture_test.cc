// The oracle on real dumps recorded from a v1 boot (testdata/README.md).
#include <gtest/gtest.h>

#include "oracle/bulk_blobs.h"
#include "oracle/dump_compare.h"
#include "oracle/equivalence.h"
#include "oracle/invariants.h"
#include "oracle/memmap_dump.h"
#include "oracle/normalise.h"
#include "oracle/synthetic_dump.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::oracle {
namespace {

MemmapDump fixture(const std::string& name) {
  return parse_memmap_dump(
      read_file(kseries::testing::source_dir() / "framework/oracle/testdata" / name));
}

TEST(OracleFixture, RealDevdaxDumpsHoldTheInvariantsAndAgree) {
  const MemmapDump fast = fixture("v1-devdax-mem-fast.mmd");
  const MemmapDump slow = fixture("v1-devdax-mem-slow.mmd");
  EXPECT_EQ(fast.header().get(Word::k_vmemmap_shift), 9U);
  EXPECT_EQ(fast.header().get(Word::k_pgmap_type), static_cast<uint64_t>(PgmapType::k_generic));
  EXPECT_EQ(slow.header().get(Word::k_tracepoint_on_at_init), 1U);
  const InvariantReport r = check_invariants(fast);
  EXPECT_TRUE(r.ok()) << format_invariants(r);
  EXPECT_EQ(r.pages_checked, 524288U);
  const Comparison c = compare_dumps(slow, fast);
  EXPECT_TRUE(c.equal()) << format_comparison(c);
}

TEST(OracleFixture, TheSyntheticModelMatchesTheKernelByteForByte) {
  // synthetic_page() is what the unit tests take for "correct 6.12": prove
  // it is, on every PFN of real dumps (order 9 and order 0).
  for (const char* name : {"v1-devdax-mem-slow.mmd", "v1-fsdax-mem-slow.mmd"}) {
    const MemmapDump real = fixture(name);
    uint64_t differing = 0;
    uint64_t first = 0;
    for (uint64_t pfn = real.start_pfn(); pfn < real.end_pfn(); ++pfn) {
      if (synthetic_page(real.header(), pfn) != *real.page(pfn)) {
        first = differing++ == 0 ? pfn : first;
      }
    }
    EXPECT_EQ(differing, 0U) << name << ": first at pfn " << std::hex << first << "\nreal "
                             << hex_bytes(*real.page(first)) << "\nmodel "
                             << hex_bytes(synthetic_page(real.header(), first));
  }
}

TEST(OracleFixture, ThePageLeftUnwrittenInTheGuestIsFound) {
  const MemmapDump slow = fixture("v1-devdax-mem-slow.mmd");
  const MemmapDump unwritten = fixture("v1-devdax-mem-unwritten.mmd");
  ASSERT_EQ(unwritten.header().get(Word::k_unwritten_pfn), 0x100201U);
  const Comparison c = compare_dumps(slow, unwritten);
  EXPECT_EQ(c.pages_differing, 1U);
  ASSERT_FALSE(c.groups.empty());
  EXPECT_EQ(c.groups[0].first_position, "tail 1 of head 0x100200");
  const InvariantReport r = check_invariants(unwritten);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.violations[0].rule, "never written (poison)");
  EXPECT_EQ(r.violations[0].first_pfn, 0x100201U);
}

TEST(OracleFixture, JudgesTheRecordedBootFromItsBulkDisk) {
  // Rebuild the guest's bulk disk from the fixtures at the offsets the
  // recorded protocol announced, then run the whole host verdict.
  const auto dir = kseries::testing::source_dir() / "framework/oracle/testdata";
  const auto events = guest::parse_protocol(read_file(dir / "v1-protocol.log"));
  std::string disk(2863104, '\0');
  for (const BlobRef& ref : blob_refs(events)) {
    if (ref.name.rfind("devdax-mem-", 0) == 0 || ref.name.rfind("fsdax-mem-", 0) == 0) {
      const std::string blob = read_file(dir / ("v1-" + ref.name + ".mmd"));
      disk.replace(ref.offset, blob.size(), blob);
    }
  }
  kseries::testing::TempDir tmp;
  write_file(tmp / "bulk.img", disk);
  const auto verdicts = judge_memmap_equivalence(events, tmp / "bulk.img");
  ASSERT_EQ(verdicts.size(), 4U);
  EXPECT_EQ(verdicts[0].setup, "fsdax-mem");
  EXPECT_EQ(verdicts[0].status, VerdictStatus::k_pass) << verdicts[0].summary;
  EXPECT_EQ(verdicts[2].setup, "devdax-mem");
  EXPECT_EQ(verdicts[2].status, VerdictStatus::k_pass) << verdicts[2].summary;
  // fsdax-dev and devdax-dev blobs are not in the fixture: their checksum fails.
  EXPECT_EQ(verdicts[1].status, VerdictStatus::k_fail);
  EXPECT_NE(verdicts[1].summary.find("sha256"), std::string::npos) << verdicts[1].summary;
}

}  // namespace
}  // namespace kseries::oracle

namespace kseries::oracle {
namespace {

TEST(OracleFixture, TheKnownBadTailOrderRevisionFailsNamingFieldAndPfnClass) {
  // patches/known-bad tail-template-order, devdax map=mem, one real boot.
  const MemmapDump fast = fixture("bad-tail-order-devdax-mem-fast.mmd");
  const MemmapDump slow = fixture("bad-tail-order-devdax-mem-slow.mmd");
  EXPECT_TRUE(fast.header().has(Word::k_tail_mapping));  // the 60-word header
  EXPECT_TRUE(check_invariants(slow).ok()) << format_invariants(check_invariants(slow));
  const Comparison c = compare_dumps(slow, fast);
  ASSERT_FALSE(c.equal());
  EXPECT_EQ(c.pages_differing, 522240U);  // every tail 2+ of the 1024 compound pages
  const MismatchGroup& g = c.groups[0];
  EXPECT_EQ(g.count, 521216U);
  EXPECT_EQ(g.role, PageRole::k_tail);
  EXPECT_EQ(g.first_position, "tail 3 of head 0x100000");
  const std::string text = format_comparison(c);
  EXPECT_NE(text.find("field index: expected 0x0 [00 00 00 00 00 00 00 00], actual 0x200"),
            std::string::npos)
      << text;
  const InvariantReport r = check_invariants(fast);
  EXPECT_FALSE(r.ok());
  SetupDumps dumps;
  dumps.setup = "devdax-mem";
  dumps.fast = fast;
  dumps.slow = slow;
  const SetupVerdict v = judge_setup(dumps);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("fast path differs from slow path"), std::string::npos) << v.summary;
}

}  // namespace
}  // namespace kseries::oracle
