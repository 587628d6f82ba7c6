#include "report/svg_plot.h"

#include <gtest/gtest.h>

namespace kseries::report {
namespace {

TEST(SvgPlotTest, SiNumbers) {
  EXPECT_EQ(si_number(0), "0");
  EXPECT_EQ(si_number(23), "23");
  EXPECT_EQ(si_number(950000), "950k");
  EXPECT_EQ(si_number(16400000), "16.4M");
}

TEST(SvgPlotTest, ADotPerSampleAMeanAndAnIntervalPerRow) {
  StripPlot plot{"devdax-mem memmap_init_vns <&>", "vns", {}};
  plot.rows.push_back({"base", {100, 102, 98}, 100, 99, 101, "", Tone::k_base});
  plot.rows.push_back({"v10 <b>", {50, 51}, 50.5, 50, 51, "-49.5 % faster", Tone::k_faster});
  const std::string svg = render_strip_plot(plot);
  std::size_t circles = 0;
  for (auto at = svg.find("<circle "); at != std::string::npos; at = svg.find("<circle ", at + 1)) {
    ++circles;
  }
  EXPECT_EQ(circles, 5u);
  EXPECT_NE(svg.find("devdax-mem memmap_init_vns &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(svg.find("v10 &lt;b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#1a7f37\" class=\"note\">-49.5 % faster"), std::string::npos);
  // The axis starts at zero and covers the largest sample (102) in steps of
  // 1, 2 or 5 times a power of ten: 0 to 150 by 50.
  EXPECT_NE(svg.find(">0</text>"), std::string::npos);
  EXPECT_NE(svg.find(">50</text>"), std::string::npos);
  EXPECT_NE(svg.find(">150</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">200</text>"), std::string::npos);
  // Sample 50 is a third of the way along the 360-pixel plot from x = 200.
  EXPECT_NE(svg.find("cx=\"320.0\""), std::string::npos);
}

TEST(SvgPlotTest, NoSamplesStillDrawsAnAxis) {
  const std::string svg = render_strip_plot({"empty", "ns", {}});
  EXPECT_NE(svg.find("<svg "), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// A guest (or a results.json) measured 1.7976931348623157e308: the axis end
// became inf and the tick loop never ended (17 GB, then bad_alloc).
TEST(SvgPlotTest, HugeSamplesDrawABoundedAxis) {
  for (const double huge : {1.7976931348623157e308, 1e300, 1e200}) {
    StripRow row;
    row.label = "hostile";
    row.samples = {1, huge};
    row.mean = huge;
    row.low = 0;
    row.high = huge;
    const std::string svg = render_strip_plot({"t", "ns", {row}});
    EXPECT_LT(svg.size(), 10000u) << huge;
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
  }
}

// The other end (fuzz_report_text): a largest sample of 1.5e-323, a
// denormal whose fifth is 0, made the tick step 0 and the tick count inf,
// undefined as an int.
TEST(SvgPlotTest, DenormalSamplesDrawABoundedAxis) {
  for (const double tiny : {1.5e-323, 4.9e-324, 1e-310}) {
    StripRow row;
    row.label = "hostile";
    row.samples = {tiny, tiny / 2};
    row.mean = tiny;
    const std::string svg = render_strip_plot({"t", "ns", {row}});
    EXPECT_LT(svg.size(), 10000u) << tiny;
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
  }
}

}  // namespace
}  // namespace kseries::report
