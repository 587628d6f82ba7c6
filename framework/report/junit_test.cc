#include "report/junit.h"

#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <sstream>

#include "testing/temp_dir.h"

namespace kseries::report {
namespace {

std::vector<TestSuite> sample() {
  TestSuite suite;
  suite.name = "kseries apply demo/v2";
  suite.properties = {{"base", "a37409fe"}};
  TestCase ok{"apply.demo/v2",     "01 first", 0.5, CaseStatus::k_passed, "", "",
              {{"commit", "abc"}}, ""};
  TestCase bad{"apply.demo/v2",
               "02 second",
               0.25,
               CaseStatus::k_failed,
               "does not apply",
               "hunk 1 <@@ -1 +1 @@> & \x01 control",
               {},
               ""};
  TestCase skip{"apply.demo/v2", "03 third", 0, CaseStatus::k_skipped, "not attempted", "", {}, ""};
  TestCase err{"apply.demo/v2", "04 fourth", 0, CaseStatus::k_error, "tool crashed", "", {}, "out"};
  suite.cases = {ok, bad, skip, err};
  return {suite};
}

TEST(JunitTest, CountsMatchChildren) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(sample()).c_str()));
  const auto root = doc.child("testsuites");
  ASSERT_TRUE(root);
  EXPECT_EQ(root.attribute("tests").as_int(), 4);
  EXPECT_EQ(root.attribute("failures").as_int(), 1);
  EXPECT_EQ(root.attribute("errors").as_int(), 1);
  EXPECT_FALSE(root.attribute("skipped"));  // junit-10.xsd refuses it there
  for (auto suite : root.children("testsuite")) {
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    double time = 0;
    for (auto test : suite.children("testcase")) {
      ++tests;
      EXPECT_FALSE(std::string(test.attribute("name").value()).empty());
      EXPECT_FALSE(std::string(test.attribute("classname").value()).empty());
      time += test.attribute("time").as_double();
      failures += test.child("failure") ? 1 : 0;
      errors += test.child("error") ? 1 : 0;
      skipped += test.child("skipped") ? 1 : 0;
    }
    EXPECT_EQ(suite.attribute("tests").as_int(), tests);
    EXPECT_EQ(suite.attribute("failures").as_int(), failures);
    EXPECT_EQ(suite.attribute("errors").as_int(), errors);
    EXPECT_EQ(suite.attribute("skipped").as_int(), skipped);
    EXPECT_NEAR(suite.attribute("time").as_double(), time, 0.001);
  }
}

TEST(JunitTest, FailureCarriesMessageAndEscapedExcerpt) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(sample()).c_str()));
  const auto failure = doc.select_node("//testcase[@name='02 second']/failure").node();
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("message").value(), "does not apply");
  const std::string text = failure.text().get();
  EXPECT_EQ(text.rfind("does not apply\nhunk 1", 0), 0u) << text;  // GitLab shows only the text
  EXPECT_NE(text.find("<@@ -1 +1 @@> &"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x01'), std::string::npos);
}

TEST(JunitTest, SuitePropertiesStayCasePropertiesOpenSystemOut) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(sample()).c_str()));
  EXPECT_FALSE(doc.select_node("//testcase/properties"));
  const auto first = doc.select_node("//testcase[@name='01 first']/system-out").node();
  ASSERT_TRUE(first);
  EXPECT_STREQ(first.text().get(), "commit=abc\n");
  EXPECT_STREQ(doc.select_node("//testcase[@name='04 fourth']/system-out").node().text().get(),
               "out");
  EXPECT_TRUE(doc.select_node("/testsuites/testsuite/properties/property[@name='base']"));
}

// GitLab reads `file` only from <testcase>; Jenkins xUnit's junit-10.xsd has
// no `file` there. The default keeps it in system-out; the gitlab flavour
// writes the attribute as well. The message opens the element text either way.
TEST(JunitTest, FileIsAnAttributeOnlyForGitlab) {
  auto suites = sample();
  suites[0].cases[1].file = "patches/demo/v2/0002-second.patch";
  suites[0].cases[3].file = "mm/mm_init.c";
  suites[0].cases[3].line = 1065;
  for (const auto flavour : {JunitFlavour::k_junit10, JunitFlavour::k_gitlab}) {
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_string(render_junit(suites, flavour).c_str()));
    const auto bad = doc.select_node("//testcase[@name='02 second']").node();
    const auto err = doc.select_node("//testcase[@name='04 fourth']").node();
    const bool gitlab = flavour == JunitFlavour::k_gitlab;
    EXPECT_EQ(std::string(bad.attribute("file").value()),
              gitlab ? "patches/demo/v2/0002-second.patch" : "");
    EXPECT_EQ(std::string(err.attribute("file").value()), gitlab ? "mm/mm_init.c" : "");
    EXPECT_FALSE(doc.select_node("//testcase[@name='01 first']/@file"));
    EXPECT_STREQ(bad.child("system-out").text().get(), "file=patches/demo/v2/0002-second.patch\n");
    EXPECT_STREQ(err.child("system-out").text().get(), "file=mm/mm_init.c:1065\nout");
    EXPECT_EQ(std::string(bad.child("failure").text().get()).rfind("does not apply\n", 0), 0u);
  }
}

TEST(JunitTest, FlavourFromTheEnvironment) {
  EXPECT_EQ(junit_flavour(nullptr, nullptr), JunitFlavour::k_junit10);
  EXPECT_EQ(junit_flavour(nullptr, "true"), JunitFlavour::k_gitlab);  // a GitLab job
  EXPECT_EQ(junit_flavour(nullptr, ""), JunitFlavour::k_junit10);
  EXPECT_EQ(junit_flavour("junit-10", "true"), JunitFlavour::k_junit10);
  EXPECT_EQ(junit_flavour("gitlab", nullptr), JunitFlavour::k_gitlab);
}

TEST(JunitTest, XmlSafeKeepsUtf8AndReplacesWhatXmlCannotCarry) {
  const std::string bad = "\xEF\xBF\xBD";
  EXPECT_EQ(xml_safe("tab\tnl\ncr\r caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\xA7"),
            "tab\tnl\ncr\r caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\xA7");
  EXPECT_EQ(xml_safe("\x1b[31m"), bad + "[31m");
  EXPECT_EQ(xml_safe("a\x0c"
                     "b"),
            "a" + bad + "b");
  EXPECT_EQ(xml_safe(std::string("a\0b", 3)), "a" + bad + "b");
  EXPECT_EQ(xml_safe("caf\xE9!"), "caf" + bad + "!");    // Latin-1, not UTF-8
  EXPECT_EQ(xml_safe("\xFF\xFE"), bad + bad);            // never in UTF-8
  EXPECT_EQ(xml_safe("\xC3"), bad);                      // cut sequence
  EXPECT_EQ(xml_safe("\xC0\xAF"), bad + bad);            // overlong '/'
  EXPECT_EQ(xml_safe("\xED\xA0\x80"), bad + bad + bad);  // a surrogate
  EXPECT_EQ(xml_safe("\xEF\xBF\xBF"), bad);              // U+FFFF: UTF-8, not an XML char
}

// A report as hostile as a kernel log: controls and stray bytes in every
// field the writer emits.
std::vector<TestSuite> hostile() {
  const std::string junk = std::string("esc\x1b[0m ff\x0c nul") + '\0' + " e9\xE9 ff\xFF";
  TestSuite suite;
  suite.name = "suite " + junk;
  suite.timestamp = "2026-12-01T00:00:00";
  suite.properties = {{"base " + junk, "value " + junk}};
  TestCase pass{"class " + junk,
                "pass " + junk,
                1.5,
                CaseStatus::k_passed,
                "",
                "",
                {{"commit", "abc"}, {"name " + junk, "value " + junk}},
                "out " + junk};
  TestCase fail{"class",           "fail " + junk,   0.25, CaseStatus::k_failed,
                "message " + junk, "detail " + junk, {},   ""};
  TestCase error{"class", "error", 0, CaseStatus::k_error, "message " + junk, "", {}, ""};
  TestCase skip{"class", "skip", 0, CaseStatus::k_skipped, "message " + junk, "", {}, ""};
  suite.cases = {pass, fail, error, skip};
  TestSuite empty;
  empty.name = "empty";
  return {suite, empty};
}

TEST(JunitTest, HostileReportIsWellFormedUtf8) {
  const std::string xml = render_junit(hostile());
  EXPECT_EQ(xml_safe(xml), xml);  // no control but tab/newline/CR, UTF-8 only
  EXPECT_EQ(xml.find("&#"), std::string::npos) << xml;
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str()));
  EXPECT_TRUE(doc.select_node("//testcase[@name='skip']/skipped"));
}

TEST(JunitTest, DashMeansStandardOutput) {
  testing::TempDir dir;
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::ostringstream out;
  write_junit("-", sample(), out);
  std::filesystem::current_path(cwd);
  EXPECT_EQ(out.str(), render_junit(sample()));
  EXPECT_FALSE(std::filesystem::exists(dir / "-"));
}

// An all-skip cell read "10 testcase(s) pass".
TEST(JunitTest, TallyTellsSkipsFromPasses) {
  TestSuite suite;
  suite.cases.push_back({"boot.pmem.demo", "boot v10 #1"});
  EXPECT_EQ(tally_cases(suite), "1 testcase(s) pass");
  EXPECT_FALSE(only_boots_ran(suite));
  for (int i = 0; i < 3; ++i) {
    TestCase skipped{"case.pmem.demo.v10", "s" + std::to_string(i)};
    skipped.status = CaseStatus::k_skipped;
    suite.cases.push_back(skipped);
  }
  EXPECT_EQ(tally_cases(suite), "1 pass, 3 skipped");
  EXPECT_TRUE(only_boots_ran(suite));
  suite.cases.push_back({"case.pmem.demo.v10", "ok"});
  EXPECT_FALSE(only_boots_ran(suite));
}

}  // namespace
}  // namespace kseries::report
