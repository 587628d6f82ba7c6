#include "coverage/cover_file.h"

#include <gtest/gtest.h>

#include "core/error.h"

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

}  // namespace
}  // namespace kseries::coverage
