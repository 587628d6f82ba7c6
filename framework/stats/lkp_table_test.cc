#include "stats/lkp_table.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace kseries::stats {
namespace {

// A comparison built by hand, so the table is checked apart from compare().
Comparison made(double base_mean, double base_stddev, double candidate_mean,
                double candidate_stddev, double relative_change) {
  Comparison c;
  c.base.n = c.candidate.n = 30;
  c.base.mean = base_mean;
  c.base.stddev = base_stddev;
  c.candidate.mean = candidate_mean;
  c.candidate.stddev = candidate_stddev;
  c.relative_change = relative_change;
  c.ratio = 1 + relative_change;
  c.ratio_interval = {0.9, 0.95};
  c.rank_test.p = 0.0012;
  c.verdict = Verdict::k_faster;
  c.reason = "why";
  return c;
}

// "±" is two bytes of UTF-8 but one column: compare columns, not bytes.
std::string plain(std::string text) {
  for (std::size_t at = text.find("±"); at != std::string::npos; at = text.find("±")) {
    text.replace(at, 2, "~");
  }
  return text;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(LkpTableTest, RowMatchesA0DayReportLine) {
  // From a 0-day report:
  // "   1742139 ± 89%     -91.6%     146373 ± 56%  numa-meminfo.node1.Unevictable"
  const LkpRow row{"numa-meminfo.node1.Unevictable",
                   made(1742139.7, 0.895 * 1742139.7, 146373.2, 0.566 * 146373.2, -0.916)};
  const std::string line = render_lkp_row(row);
  EXPECT_TRUE(starts_with(line, "   1742139 ± 89%     -91.6%     146373 ± 56%  ")) << line;
  EXPECT_EQ(line.substr(line.size() - row.metric.size() - 2), "  " + row.metric);
}

TEST(LkpTableTest, SmallMeansTwoDecimalsAndStddevHiddenAtTwoPercent) {
  // "      0.42            +0.0        0.46 ±  2%" style: below 1000 is %.2f,
  // a stddev of 2 % or less prints as blanks.
  const LkpRow row{"m", made(32, 0.6, 44.8, 5.6333, 0.4)};
  const std::string line = render_lkp_row(row);
  EXPECT_TRUE(starts_with(line, "     32.00           +40.0%      44.80 ± 12%  ")) << line;
}

TEST(LkpTableTest, HugeMeansUseFourSignificantDigits) {
  // "7.273e+08 ± 36%     -72.1%  2.032e+08 ± 10%" in a 0-day report.
  const LkpRow row{"m", made(7.273e+08, 0.365 * 7.273e+08, 2.032e+08, 0.105 * 2.032e+08, -0.721)};
  const std::string line = render_lkp_row(row);
  EXPECT_TRUE(starts_with(line, " 7.273e+08 ± 36%     -72.1%  2.032e+08 ± 10%  ")) << line;
}

TEST(LkpTableTest, ExtraColumnsCarryIntervalPAndVerdict) {
  const LkpRow row{"memmap.fsdax-dev.ms", made(32, 4, 30, 3, -0.0625)};
  const std::string line = render_lkp_row(row);
  EXPECT_NE(line.find("[  -10.0%,    -5.0%]"), std::string::npos) << line;
  EXPECT_NE(line.find("0.0012"), std::string::npos) << line;
  EXPECT_NE(line.find("faster"), std::string::npos) << line;
}

TEST(LkpTableTest, UndefinedChangePrintsNotAvailable) {
  Comparison c = made(0, 0, 3, 1, 0);
  c.relative_change = c.ratio = std::numeric_limits<double>::quiet_NaN();
  c.ratio_interval = {c.ratio, c.ratio};
  const std::string line = render_lkp_row({"m", c});
  EXPECT_EQ(line.find("nan"), std::string::npos) << line;
  EXPECT_NE(line.find("n/a"), std::string::npos) << line;
}

TEST(LkpTableTest, TableHasLkpHeadersRowsAndReasons) {
  const std::vector<LkpRow> rows = {{"a.ms", made(32, 4, 30, 3, -0.0625)},
                                    {"b.ns", made(2000, 10, 2100, 10, 0.05)}};
  const auto lines = lines_of(render_lkp_table("base-6.12", "zone-device-memmap-v6", rows));
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0], "       base-6.12       zone-device-memmap-v6 ");
  EXPECT_EQ(lines[1], "---------------- --------------------------- ");
  EXPECT_EQ(lines[2].substr(0, 44), "         %stddev     %change         %stddev");
  EXPECT_EQ(lines[3], "             \\          |                \\  ");
  EXPECT_EQ(lines[4].substr(lines[4].size() - 4), "a.ms");
  EXPECT_EQ(lines[5].substr(lines[5].size() - 4), "b.ns");
  EXPECT_EQ(lines[6], "");
  EXPECT_EQ(lines[7], "a.ms: faster, why");
  // Columns line up: every body row is as long up to the metric.
  EXPECT_EQ(plain(lines[4]).size(), plain(lines[5]).size());
  EXPECT_EQ(lines[2].find("verdict"), plain(lines[4]).find("faster"));
  EXPECT_EQ(lines[2].find("95% CI"), plain(lines[4]).find("[  -10.0%"));
}

TEST(LkpTableTest, LongNamesAreCutToLkpWidths) {
  const auto lines =
      lines_of(render_lkp_table("0123456789abcdefXYZ", "0123456789abcdef0123456789abcdef", {}));
  EXPECT_EQ(lines[0], "0123456789abcdef 0123456789abcdef0123456789a ");
}

}  // namespace
}  // namespace kseries::stats
