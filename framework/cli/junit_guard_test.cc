#include "cli/junit_guard.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <pugixml.hpp>

#include <fstream>
#include <future>

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

// A full disk: the report cannot be written anew (here: the file beside it
// that an atomic replace needs is taken), but the placeholder's reserved
// bytes can be written over, so the run's end is told, not "did not finish".
TEST(JunitGuardTest, TheEndIsWrittenOverThePlaceholderWhenNothingNewCanBe) {
  testing::TempDir dir;
  const auto file = dir / "j.xml";
  const JunitGuard guard("apply", {"--junit", file.string()});
  guard.arm();
  EXPECT_EQ(std::filesystem::file_size(file), k_reserved_junit_bytes);
  std::filesystem::create_directory(file.string() + ".partial-" + std::to_string(::getpid()));
  EXPECT_THROW(replace_file(file, "x"), Error);  // nothing new can be written
  guard.record(infra_error("cannot write " + file.string() + ": No space left on device\n" +
                           std::string(40000, 'x')));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(read_file(file).c_str()));
  const auto test = doc.select_node("//testcase").node();
  EXPECT_STREQ(test.attribute("name").value(), "infrastructure error");
  EXPECT_NE(std::string(test.child("error").attribute("message").value()).find("No space left"),
            std::string::npos);
  EXPECT_LE(std::filesystem::file_size(file), k_reserved_junit_bytes);
}

// A FIFO took the placeholder (its reader left with it), then the real
// report blocked: a stream gets nothing until the end, then one document.
TEST(JunitGuardTest, AStreamGetsOneDocumentTheLast) {
  testing::TempDir dir;
  const auto fifo = dir / "j.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const JunitGuard guard("apply", {"--series", "s", "--junit", fifo.string()});
  guard.arm();  // writes nothing: with no reader it would block here
  const auto args = guard.arguments({"--series", "s", "--junit", fifo.string()});
  ASSERT_EQ(args.size(), 4u);
  EXPECT_NE(args[3], fifo.string());
  // The command writes where it is told, as often as it likes.
  write_file(args[3], "<first/>\n");
  write_file(args[3], "<testsuites/>\n");
  auto reader = std::async(std::launch::async, [&] {
    std::ifstream in(fifo);
    return std::string(std::istreambuf_iterator<char>(in), {});
  });
  guard.deliver();
  EXPECT_EQ(reader.get(), "<testsuites/>\n");
  EXPECT_EQ(guard.arguments({"--junit=" + fifo.string()})[0], "--junit=" + args[3]);
  EXPECT_EQ(JunitGuard("apply", {"--junit", (dir / "f.xml").string()})
                .arguments({"--junit", (dir / "f.xml").string()})[1],
            (dir / "f.xml").string());
}

}  // namespace
}  // namespace kseries::cli
