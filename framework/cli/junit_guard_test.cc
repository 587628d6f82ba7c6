#include "cli/junit_guard.h"

#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::cli {
namespace {

TEST(JunitGuardTest, FindsTheJunitOptionInEitherSpelling) {
  EXPECT_EQ(junit_option({"--series", "s", "--junit", "out.xml"}), "out.xml");
  EXPECT_EQ(junit_option({"--junit=out.xml", "--series", "s"}), "out.xml");
  EXPECT_EQ(junit_option({"--junit", "-"}), "-");
  EXPECT_FALSE(junit_option({"--series", "s"}));
  EXPECT_FALSE(junit_option({"--junit"}));  // no value: a usage error, nowhere to write
  EXPECT_FALSE(junit_option({"--junit", ""}));
  EXPECT_FALSE(junit_option({"--junit", "out.xml", "--help"}));
}

// The file was written for a command without --junit and for a --junit
// after "--" (not an option there).
TEST(JunitGuardTest, OnlyCommandsWithTheOptionAndNotAfterDoubleDash) {
  EXPECT_FALSE(junit_option({"--series", "s", "--", "--junit", "out.xml"}));
  EXPECT_FALSE(junit_option("plan", {"--series", "s", "--junit", "out.xml"}));
  EXPECT_FALSE(junit_option("tree", {"--junit", "out.xml"}));
  EXPECT_EQ(junit_option("gate", {"--junit", "out.xml"}), "out.xml");
}

std::string only_case(const std::filesystem::path& file, const char* element) {
  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_string(read_file(file).c_str()));
  const auto cases = doc.select_nodes("//testcase");
  EXPECT_EQ(cases.size(), 1u);
  const auto test = cases.first().node();
  EXPECT_STREQ(test.attribute("classname").value(), "kseries.build");
  const auto outcome = test.child(element);
  EXPECT_TRUE(outcome) << element;
  return std::string(test.attribute("name").value()) + ": " + outcome.attribute("message").value();
}

TEST(JunitGuardTest, APlaceholderUntilTheEndIsKnown) {
  testing::TempDir dir;
  const auto file = dir / "j.xml";
  JunitGuard guard("build", {"--junit", file.string()});
  guard.arm();
  EXPECT_EQ(only_case(file, "error").rfind("did not finish: kseries build did not finish", 0), 0u);
  guard.record(usage_error("--target nope: no such target"));
  EXPECT_EQ(only_case(file, "error"), "usage error: --target nope: no such target");
  guard.record(interrupted_error("interrupted while running make"));
  EXPECT_EQ(only_case(file, "error"), "interrupted: interrupted while running make");
  guard.record(infra_error("disk full"));
  EXPECT_EQ(only_case(file, "error"), "infrastructure error: disk full");
  guard.record(check_failure("the series s does not apply onto base\n  patch 1/2 ..."));
  EXPECT_EQ(only_case(file, "failure"), "check failed: the series s does not apply onto base");
  guard.record_internal("std::bad_alloc");
  EXPECT_EQ(only_case(file, "error"), "internal error: std::bad_alloc");
}

TEST(JunitGuardTest, NothingWithoutTheOptionAndNoPlaceholderOnStdout) {
  testing::TempDir dir;
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  JunitGuard("apply", {"--series", "s"}).arm();
  JunitGuard("apply", {"--junit", "-"}).arm();
  std::filesystem::current_path(cwd);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(JunitGuardTest, AnUnwritableReportIsSaidNotThrown) {
  testing::TempDir dir;
  const JunitGuard guard("gate", {"--junit", (dir / "no" / "j.xml").string()});
  EXPECT_THROW(guard.arm(), Error);
  EXPECT_NO_THROW(guard.record(usage_error("x")));
}

}  // namespace
}  // namespace kseries::cli
