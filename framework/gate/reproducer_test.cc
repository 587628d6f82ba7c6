#include "gate/reproducer.h"

#include <gtest/gtest.h>

#include "sys/process.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

TEST(ReproducerTest, QuotesForSh) {
  EXPECT_EQ(sh_quote("--series"), "--series");
  EXPECT_EQ(sh_quote("cover.1@example.com#v2"), "'cover.1@example.com#v2'");
  EXPECT_EQ(sh_quote("a$(rm -rf ~)@x"), "'a$(rm -rf ~)@x'");
  EXPECT_EQ(sh_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(sh_quote(""), "''");
}

TEST(ReproducerTest, ABootCellIsAppliedBuiltAndBooted) {
  ReproduceInputs inputs;
  inputs.series = {{"--series", "<a@b>", "--inbox", "http://x/toy"}};
  inputs.base = {"--tree", "/t", "--base", "abc"};
  inputs.accel = "tcg";
  MatrixCell cell{"pmem", "memmap-timing", std::vector<std::string>{"fsdax-mem"}, 5, 1};
  const auto commands = reproduce_commands(inputs, 0, "pmem memmap-timing", &cell, true);
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0][1], "apply");
  EXPECT_EQ(commands[1][1], "build");
  const std::vector<std::string> boot = {"kseries",
                                         "boot",
                                         "--target",
                                         "pmem",
                                         "--case",
                                         "memmap-timing",
                                         "--series",
                                         "<a@b>",
                                         "--inbox",
                                         "http://x/toy",
                                         "--compare-base",
                                         "--setups",
                                         "fsdax-mem",
                                         "--rebinds",
                                         "5",
                                         "--accel",
                                         "tcg",
                                         "--clock",
                                         "auto",
                                         "--tree",
                                         "/t",
                                         "--base",
                                         "abc"};
  EXPECT_EQ(commands[2], boot);
}

TEST(ReproducerTest, APerPatchCellIsAPerPatchBuild) {
  ReproduceInputs inputs;
  inputs.series = {{"--series", "/s/v1"}};
  inputs.base = {"--tarball", "/t.tar.xz"};
  inputs.directories = {"--configs", "/c", "--testcases", "/tc"};
  const auto commands = reproduce_commands(inputs, 0, "per-patch pmem", nullptr, false);
  ASSERT_EQ(commands.size(), 2u);
  const std::vector<std::string> build = {"kseries",     "build",     "--target", "pmem",
                                          "--per-patch", "--series",  "/s/v1",    "--tarball",
                                          "/t.tar.xz",   "--configs", "/c"};
  EXPECT_EQ(commands[1], build);
}

// The printed "reproduce: sh PATH" line, pasted into sh: it runs the
// script and nothing else, whatever the series directory's name (printed
// as it was, x$(touch${IFS}PWNED)y ran touch).
TEST(ReproducerTest, TheReproduceLineRunsTheScriptAndNothingElse) {
  const testing::TempDir dir;
  for (const std::string name :
       {"x$(touch${IFS}PWNED)y", "a b", "it's", "`touch PWNED`", "x;touch PWNED", "plain"}) {
    const auto script = dir / name / "cells" / "reproduce.sh";
    testing::put_file(script, "touch \"$(dirname \"$0\")/ran\"\n");
    SystemProcessRunner runner;
    ProcessSpec spec;
    spec.argv = {"sh", "-c", reproduce_line(script.string())};
    spec.cwd = dir.path();
    spec.timeout = std::chrono::seconds(30);
    const auto result = runner.run(spec);
    EXPECT_TRUE(result.ok()) << name << ": " << result.describe() << " " << result.err;
    EXPECT_TRUE(std::filesystem::exists(script.parent_path() / "ran")) << name;
    EXPECT_FALSE(std::filesystem::exists(dir / "PWNED")) << name;
  }
  EXPECT_EQ(reproduce_line("/runs/1/cells/toy-apply/reproduce.sh"),
            "sh /runs/1/cells/toy-apply/reproduce.sh");
}

// A shard's gate.json is data anyone may have edited: its reproduce
// property is taken only as a reproduce.sh below that shard's run.
TEST(ReproducerTest, AShardsReproducerMustBeItsOwn) {
  EXPECT_EQ(shard_reproducer("/r/s1/cells/x/reproduce.sh", "/r/s1"),
            std::optional<std::string>("/r/s1/cells/x/reproduce.sh"));
  EXPECT_FALSE(shard_reproducer("x; rm -rf ~", "/r/s1"));
  EXPECT_FALSE(shard_reproducer("/r/s1/cells/x/reproduce.sh; rm -rf ~", "/r/s1"));
  EXPECT_FALSE(shard_reproducer("/r/s1/../s2/cells/x/reproduce.sh", "/r/s1"));
  EXPECT_FALSE(shard_reproducer("/etc/reproduce.sh", "/r/s1"));
  EXPECT_FALSE(shard_reproducer("/r/s1/cells/x/reproduce.sh\nrm -rf ~", "/r/s1"));
  EXPECT_FALSE(shard_reproducer("/r/s1/cells/x/evil.sh", "/r/s1"));
  EXPECT_FALSE(shard_reproducer("", "/r/s1"));
}

}  // namespace
}  // namespace kseries::gate
