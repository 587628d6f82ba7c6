#include "oracle/memmap_dump.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "oracle/synthetic_dump.h"

namespace kseries::oracle {
namespace {

TEST(DumpFormat, RoundTripsThroughTheEncoder) {
  const MemmapDump dump = make_synthetic_dump({});
  const std::string bytes = encode_memmap_dump(dump);
  const MemmapDump back = parse_memmap_dump(bytes);
  EXPECT_EQ(back.header().words, dump.header().words);
  ASSERT_EQ(back.runs().size(), dump.runs().size());
  EXPECT_EQ(back.start_pfn(), 0x100000U);
  EXPECT_EQ(back.end_pfn(), 0x100000U + 4 * 512);
  EXPECT_EQ(encode_memmap_dump(back), bytes);
}

TEST(DumpFormat, RunsCompressIdenticalPages) {
  SyntheticSpec spec;
  spec.vmemmap_shift = 0;
  spec.nr_pages = 100000;
  const MemmapDump dump = make_synthetic_dump(spec);
  ASSERT_EQ(dump.runs().size(), 1U);  // every order-0 page is the same
  EXPECT_EQ(dump.runs()[0].count, 100000U);
  EXPECT_LT(encode_memmap_dump(dump).size(), 1000U);
}

TEST(DumpFormat, PageLookupAndSetPageSplitARun) {
  SyntheticSpec spec;
  spec.vmemmap_shift = 0;
  spec.nr_pages = 10;
  MemmapDump dump = make_synthetic_dump(spec);
  const std::string original(*dump.page(0x100004));
  dump.set_page(0x100004, std::string(64, 'x'));
  EXPECT_EQ(dump.runs().size(), 3U);
  EXPECT_EQ(*dump.page(0x100004), std::string(64, 'x'));
  EXPECT_EQ(*dump.page(0x100003), original);
  EXPECT_EQ(*dump.page(0x100005), original);
  EXPECT_FALSE(dump.page(0x100010).has_value());
  EXPECT_FALSE(dump.page(0xfffff).has_value());
}

TEST(DumpFormat, RejectsBadMagicTruncationAndGaps) {
  const std::string good = encode_memmap_dump(make_synthetic_dump({}));
  EXPECT_THROW(parse_memmap_dump("NOTADUMP" + good.substr(8)), Error);
  EXPECT_THROW(parse_memmap_dump(good.substr(0, good.size() - 1)), Error);
  EXPECT_THROW(parse_memmap_dump(good.substr(0, good.size() - 16)), Error);
  EXPECT_THROW(parse_memmap_dump(good + "x"), Error);
  try {
    parse_memmap_dump(good.substr(0, 100));
    FAIL() << "a truncated header parsed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(DumpFormat, ReadsDumpsWithFewerHeaderWords) {
  // The first real dumps predate k_tail_mapping: it must read as absent.
  MemmapDump dump = make_synthetic_dump({});
  dump.header().words.resize(k_required_words);
  const MemmapDump back = parse_memmap_dump(encode_memmap_dump(dump));
  EXPECT_FALSE(back.header().has(Word::k_tail_mapping));
  EXPECT_EQ(back.header().get(Word::k_sizeof_page), 64U);
}

TEST(DumpFormat, WordNamesFollowTheModuleOrder) {
  EXPECT_EQ(word_name(Word::k_sizeof_page), "sizeof_page");
  EXPECT_EQ(word_name(Word::k_nid), "nid");
  EXPECT_EQ(word_name(Word::k_tail_mapping), "tail_mapping");
  EXPECT_EQ(pgmap_type_name(4), "MEMORY_DEVICE_GENERIC");
}

}  // namespace
}  // namespace kseries::oracle
