#include "kernel/kconfig.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries::kernel {
namespace {

TEST(KconfigTest, ParsesFragmentLines) {
  const auto requests = parse_fragment(
      "# comment\n\nCONFIG_ZONE_DEVICE=y\n# CONFIG_KASAN is not set\nCONFIG_NR_CPUS=4\n"
      "CONFIG_CMDLINE=\"console=ttyS0\"\nCONFIG_SLUB_TINY=n\n",
      "pmem.config");
  ASSERT_EQ(requests.size(), 5u);
  EXPECT_EQ(requests[0].symbol, "ZONE_DEVICE");
  EXPECT_EQ(requests[0].value, "y");
  EXPECT_EQ(requests[0].where(), "pmem.config:3");
  EXPECT_EQ(requests[1].value, "n");
  EXPECT_EQ(requests[3].value, "\"console=ttyS0\"");
  EXPECT_EQ(requests[4].value, "n");
}

TEST(KconfigTest, MalformedLineNamesFileAndLine) {
  try {
    parse_fragment("CONFIG_A=y\nZONE_DEVICE=y\n", "frag.config");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("frag.config:2: not a Kconfig fragment line"),
              std::string::npos)
        << e.what();
  }
}

TEST(KconfigTest, DotConfigLinesAreReadExactly) {
  const auto config = parse_dot_config(
      "CONFIG_A=y\nCONFIG_B=\"x y\"\n# CONFIG_C is not set\n# CONFIG_D is not set \n"
      "#CONFIG_E is not set\nCONFIG_=y\nCONFIG_F y\nCONFIG_G=\nXCONFIG_H=y\n");
  EXPECT_EQ(config, (DotConfig{{"A", "y"}, {"B", "\"x y\""}, {"C", "n"}, {"G", ""}}));
  EXPECT_EQ(parse_fragment("# CONFIG_C is not set \t\n", "f").at(0).value, "n");
}

TEST(KconfigTest, LongLinesDoNotCrash) {
  // std::regex recursed per character of "(.*)" and overflowed the stack; a
  // .config line comes from the tree's Kconfig, which a patch can change.
  const std::string value(400 * 1024, 'v');
  const std::string symbol(400 * 1024, 'S');
  EXPECT_EQ(parse_dot_config("CONFIG_A=" + value + "\n# CONFIG_" + symbol + " is not set\n")
                .at("A")
                .size(),
            value.size());
  EXPECT_EQ(parse_fragment("CONFIG_A=" + value + "\n", "f").at(0).value, value);
}

TEST(KconfigTest, LaterFragmentWins) {
  const auto merged = merge_requests({parse_fragment("CONFIG_A=y\nCONFIG_B=y\n", "one"),
                                      parse_fragment("CONFIG_A=n\nCONFIG_C=m\n", "two")});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].symbol, "A");
  EXPECT_EQ(merged[0].value, "n");
  EXPECT_EQ(merged[0].file, "two");
  EXPECT_EQ(merged[2].symbol, "C");
}

// A recorded olddefconfig result (excerpt of a real x86_64 tinyconfig-based
// .config) where ZONE_DEVICE was asked for without SPARSEMEM_VMEMMAP.
const char* k_recorded_config =
    "#\n# Automatically generated file; DO NOT EDIT.\n"
    "CONFIG_SPARSEMEM=y\n"
    "# CONFIG_SPARSEMEM_VMEMMAP is not set\n"
    "CONFIG_MEMORY_HOTPLUG=y\n"
    "CONFIG_HZ_1000=y\n"
    "CONFIG_HZ=1000\n"
    "CONFIG_CMDLINE=\"\"\n";

TEST(KconfigTest, FindsDroppedSymbolsOnARecordedConfig) {
  const auto config = parse_dot_config(k_recorded_config);
  EXPECT_EQ(config_value(config, "SPARSEMEM_VMEMMAP"), "n");
  EXPECT_EQ(config_value(config, "ZONE_DEVICE"), "n");
  EXPECT_EQ(config_value(config, "HZ"), "1000");
  const auto requests = parse_fragment(
      "CONFIG_MEMORY_HOTPLUG=y\nCONFIG_ZONE_DEVICE=y\nCONFIG_HZ=1000\n# CONFIG_KASAN is not set\n",
      "pmem.config");
  const auto dropped = find_dropped(requests, config);
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0].request.symbol, "ZONE_DEVICE");
  EXPECT_EQ(dropped[0].actual, "n");
}

}  // namespace
}  // namespace kseries::kernel
