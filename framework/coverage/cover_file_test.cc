#include "coverage/cover_file.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::coverage {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_cover_text(text, "c.txt");
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(CoverFileTest, ReadsTheAddressesAndTheirCounts) {
  const auto file = parse_cover_text(
      "kseries-cover version=1 min=0xffff800000000000\n0xffffffff81000000 3\n"
      "0xffffffff81000004 1\nend pcs=2\n",
      "c.txt");
  ASSERT_EQ(file.pcs.size(), 2u);
  EXPECT_EQ(file.pcs[1].pc, 0xffffffff81000004u);
  EXPECT_EQ(file.pcs[0].count, 3u);
  EXPECT_TRUE(file.complete);
  EXPECT_FALSE(parse_cover_text("kseries-cover version=1\n0x10 1\n", "c.txt").complete);
}

TEST(CoverFileTest, RefusesWhatThePluginNeverWrites) {
  EXPECT_EQ(error_of("memcost version=1\n"),
            "c.txt:1: not a kseries cover file (no 'kseries-cover' header)");
  EXPECT_EQ(error_of("kseries-cover version=2\n"),
            "c.txt:1: unknown cover file version (this kseries reads version=1)");
  EXPECT_EQ(error_of("kseries-cover version=1\n0x20 1\n0x10 1\n"),
            "c.txt:3: addresses out of order or repeated");
  EXPECT_EQ(error_of("kseries-cover version=1\n0x10 0\n"),
            "c.txt:2: a count of 0 (only executed addresses are listed)");
  EXPECT_EQ(error_of("kseries-cover version=1\n0x1g 1\n"), "c.txt:2: expected '0xADDRESS COUNT'");
  EXPECT_EQ(error_of("kseries-cover version=1\n0x10 1\nend pcs=2\n"),
            "c.txt:3: the 'end' line counts 2 addresses, the file has 1");
  EXPECT_EQ(error_of("kseries-cover version=1\nend pcs=0\n0x10 1\n"),
            "c.txt:3: text after the 'end' line");
  EXPECT_THROW(parse_cover_text("kseries-cover version=1\n0x10 1\n0x11 1\n", "c.txt", 1), Error);
}

TEST(CoverFileTest, MergesRunsAndFindsExecutionsInARange) {
  const auto a = parse_cover_text("kseries-cover version=1\n0x10 2\n0x20 1\n", "a");
  const auto b = parse_cover_text("kseries-cover version=1\n0x14 5\n0x20 1\n", "b");
  const auto merged = merge_executed({a, b});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[2].count, 2u);
  EXPECT_EQ(executions_in(merged, 0x10, 0x18), 5u);
  EXPECT_EQ(executions_in(merged, 0x15, 0x20), 0u);  // end exclusive
  EXPECT_EQ(executions_in(merged, 0x20, 0x21), 2u);
}

// Read as they stream: two boots' files merged side by side, only the
// addresses inside the ranges asked for kept (a changed line's code), every
// distinct address counted; the same refusals as for a whole text.
TEST(CoverFileTest, StreamsFilesKeepingOnlyTheRangesAsked) {
  const testing::TempDir dir;
  testing::put_file(dir / "a.cover",
                    "kseries-cover version=1\n0x10 2\n0x14 1\n0x20 1\n0x30 9\nend pcs=4\n");
  testing::put_file(dir / "b.cover", "kseries-cover version=1\n0x14 5\n0x20 1\n0x40 1\n");
  const Executed executed =
      read_executed({dir / "a.cover", dir / "b.cover"},
                    normalise_ranges({{0x30, 0x31}, {0x12, 0x21}, {0x18, 0x19}}));
  EXPECT_EQ(executed.distinct, 5u);  // 0x10 0x14 0x20 0x30 0x40
  ASSERT_EQ(executed.pcs.size(), 3u);
  EXPECT_EQ(executed.pcs[0].pc, 0x14u);
  EXPECT_EQ(executed.pcs[0].count, 6u);
  EXPECT_EQ(executed.pcs[1].pc, 0x20u);
  EXPECT_EQ(executed.pcs[1].count, 2u);
  EXPECT_EQ(executed.pcs[2].count, 9u);
  EXPECT_EQ(executed.cut_short, std::vector<std::string>{(dir / "b.cover").string()});
  testing::put_file(dir / "bad.cover", "kseries-cover version=1\n0x10 1\n0x10 1\n");
  try {
    read_executed({dir / "a.cover", dir / "bad.cover"}, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              (dir / "bad.cover").string() + ":3: addresses out of order or repeated");
  }
  // A line no cover file has (one address and its count take 40 bytes).
  testing::put_file(dir / "long.cover",
                    "kseries-cover version=1\n0x10 " + std::string(1000, '1') + "\n");
  EXPECT_THROW(read_executed({dir / "long.cover"}, {}), Error);
  EXPECT_THROW(read_executed({dir / "none.cover"}, {}), Error);
  testing::put_file(dir / "empty.cover", "");
  EXPECT_THROW(read_executed({dir / "empty.cover"}, {}), Error);
}

TEST(CoverFileTest, RangesAreSortedAndJoined) {
  const AddressRanges ranges = normalise_ranges({{5, 9}, {1, 3}, {2, 4}, {9, 10}, {7, 7}});
  EXPECT_EQ(ranges, (AddressRanges{{1, 4}, {5, 10}}));
}

}  // namespace
}  // namespace kseries::coverage
