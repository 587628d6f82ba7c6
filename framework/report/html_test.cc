#include "report/html.h"

#include <gtest/gtest.h>

#include "report/markup.h"
#include "testing/sample_run.h"

namespace kseries::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(HtmlTest, VerdictOnTopThenEverySeries) {
  const std::string page = render_html(testing::sample_gate_run(), {"/runs/r1"});
  const auto h1 = page.find("<h1>");
  ASSERT_NE(h1, std::string::npos);
  EXPECT_EQ(page.substr(h1, 10), "<h1>PASS: ");
  EXPECT_LT(h1, page.find("demo/v2"));
  EXPECT_NE(page.find("<section id=\"s-demo-v2\">"), std::string::npos);
  EXPECT_NE(page.find("<section id=\"s-demo-bad\">"), std::string::npos);
  EXPECT_NE(page.find("st-expected"), std::string::npos);

  auto failed = testing::sample_gate_run();
  failed.outcome = results::Outcome::k_fail;
  EXPECT_NE(render_html(failed, {"/runs/r1"}).find("<h1>FAIL: "), std::string::npos);
  failed.outcome = results::Outcome::k_error;
  EXPECT_NE(render_html(failed, {"/runs/r1"}).find("<header class=\"verdict fail\">\n<h1>ERROR: "),
            std::string::npos);
  failed.outcome = results::Outcome::k_interrupted;
  EXPECT_NE(render_html(failed, {"/runs/r1"})
                .find("<header class=\"verdict incomplete\">\n<h1>INTERRUPTED: "),
            std::string::npos);
  // Every failure named by an expectation: the run is good, drawn as a pass.
  failed.outcome = results::Outcome::k_xfail;
  EXPECT_NE(
      render_html(failed, {"/runs/r1"}).find("<header class=\"verdict pass\">\n<h1>EXPECTED: "),
      std::string::npos);
  failed.outcome = results::Outcome::k_error;
  failed.finished = false;
  EXPECT_NE(render_html(failed, {"/runs/r1"}).find("<h1>INCOMPLETE: "), std::string::npos);
}

TEST(HtmlTest, PatchesCellsOraclesAndLogs) {
  const std::string page = render_html(testing::sample_gate_run(), {"/runs/r1"});
  // Per patch: applied, checkpatch counts, the per-patch build with its log
  // (relative to the page), warnings and the new ones.
  EXPECT_NE(page.find("<td>applied</td><td>0, 1, 0</td><td><a href=\"build-demo-v2-toy-1.log\">"
                      "built</a></td><td>3 (0 new)</td>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<td>4 (1 new)</td>"), std::string::npos);
  // The oracle's first differing field and PFN, the failure text open.
  EXPECT_NE(page.find("first: field flags at pfn 0x100003 (tail 3 of head 0x100000)"),
            std::string::npos);
  EXPECT_NE(page.find("<details open=\"open\"><summary><strong>toy memmap-equivalence"),
            std::string::npos);
  EXPECT_NE(page.find("<a href=\"cells/t/candidate-1.console.log\">console</a>"),
            std::string::npos);
  // From elsewhere the links climb back to the run directory.
  const std::string moved = render_html(testing::sample_gate_run(), {"/tmp/pages"});
  EXPECT_NE(moved.find("href=\"../../runs/r1/cells/t/candidate-1.console.log\""),
            std::string::npos);
}

TEST(HtmlTest, TimingPlotsAndTheLkpTable) {
  const std::string page = render_html(testing::sample_gate_run(), {"/runs/r1"});
  // One plot (one setup, one metric): the base's 4 rebinds and the series'.
  EXPECT_EQ(count(page, "<svg "), 1u);
  EXPECT_EQ(count(page, "<circle "), 8u);
  EXPECT_NE(page.find("-50.0 % [-51.0 %, -49.0 %] faster"), std::string::npos);
  EXPECT_NE(page.find("%stddev     %change         %stddev"), std::string::npos);
  EXPECT_NE(page.find("faster   memmap_init_vns.devdax-mem"), std::string::npos);
}

TEST(HtmlTest, SelfContainedAndEveryStringEscaped) {
  const std::string hostile = "<script>alert('x')</script> & \"q\" \x1b[1m \xff";
  const std::string page = render_html(testing::sample_gate_run(hostile), {"/runs/r1"});
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("\x1b"), std::string::npos);
  EXPECT_EQ(page.find("\xff"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"),
            std::string::npos);
  // No external resource: nothing is fetched.
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
}

TEST(MarkupTest, EscapesAndEncodesLinks) {
  EXPECT_EQ(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(file_url("/a b/c#d"), "file:///a%20b/c%23d");
  EXPECT_EQ(href("/r/cells/x\"y.log", "/r"), "cells/x%22y.log");
  EXPECT_EQ(href("/r/a.log", "/s/t"), "../../r/a.log");
}

}  // namespace
}  // namespace kseries::report
