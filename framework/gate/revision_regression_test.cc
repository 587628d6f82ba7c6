#include "gate/revision_regression.h"

#include <gtest/gtest.h>

namespace kseries::gate {
namespace {

RevisionComparison comparison(double relative, stats::Verdict verdict, const std::string& metric) {
  RevisionComparison c;
  c.from = "demo/v1";
  c.to = "demo/v2";
  report::RevisionTiming t;
  t.cell = "pmem memmap-timing";
  t.setup = "fsdax-dev";
  t.metric = metric;
  t.comparison.relative_change = relative;
  t.comparison.ratio = 1 + relative;
  t.comparison.ratio_interval.low = 1 + relative - 0.002;
  t.comparison.ratio_interval.high = 1 + relative + 0.002;
  t.comparison.verdict = verdict;
  c.timings.push_back(t);
  return c;
}

TEST(RevisionRegressionTest, ASlowerRevisionIsAFindingWithItsFigure) {
  const auto findings =
      revision_findings({comparison(0.161, stats::Verdict::k_slower, "memmap_init_vns")}, {});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_FALSE(findings[0].fails);
  EXPECT_EQ(findings[0].series, "demo/v2");
  EXPECT_EQ(findings[0].text(),
            "pmem memmap-timing fsdax-dev memmap_init_vns +16.1 % [+15.9 %, +16.3 %] slower than "
            "demo/v1");
}

TEST(RevisionRegressionTest, OnlyASlowerVerdictCounts) {
  EXPECT_TRUE(revision_findings({comparison(0.161, stats::Verdict::k_unknown, "m"),
                                 comparison(-0.3, stats::Verdict::k_faster, "m"),
                                 comparison(0.01, stats::Verdict::k_same, "m")},
                                {})
                  .empty());
}

TEST(RevisionRegressionTest, ThePolicyFailsBeyondItsMaxOnItsMetric) {
  const std::vector<RevisionComparison> c = {
      comparison(0.161, stats::Verdict::k_slower, "memmap_init_vns"),
      comparison(0.629, stats::Verdict::k_slower, "memmap_init_ms")};
  auto findings = revision_findings(c, RevisionRegressionPolicy{10, std::nullopt, 1});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_DOUBLE_EQ(findings[0].percent, 62.9);  // the largest first
  EXPECT_TRUE(findings[0].fails && findings[1].fails);
  findings = revision_findings(c, RevisionRegressionPolicy{20, std::string("memmap_init_vns"), 1});
  EXPECT_FALSE(findings[0].fails);  // another metric
  EXPECT_FALSE(findings[1].fails);  // within 20 %
  findings = revision_findings(c, RevisionRegressionPolicy{50, std::nullopt, 1});
  EXPECT_TRUE(findings[0].fails);
  EXPECT_FALSE(findings[1].fails);
}

}  // namespace
}  // namespace kseries::gate
