#include "report/junit.h"

#include <gtest/gtest.h>

#include <pugixml.hpp>

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
  EXPECT_EQ(root.attribute("skipped").as_int(), 1);
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
  EXPECT_NE(text.find("<@@ -1 +1 @@> &"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x01'), std::string::npos);
}

TEST(JunitTest, PropertiesAreWritten) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(sample()).c_str()));
  const auto property =
      doc.select_node("//testcase[@name='01 first']/properties/property[@name='commit']").node();
  ASSERT_TRUE(property);
  EXPECT_STREQ(property.attribute("value").value(), "abc");
  EXPECT_TRUE(doc.select_node("/testsuites/testsuite/properties/property[@name='base']"));
}

}  // namespace
}  // namespace kseries::report
