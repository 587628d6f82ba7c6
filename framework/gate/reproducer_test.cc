#include "gate/reproducer.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kseries::gate
