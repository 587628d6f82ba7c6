#include "kernel/kconfig_index.h"

#include <gtest/gtest.h>

namespace kseries::kernel {
namespace {

// Shaped like mm/Kconfig in 6.12.
const char* k_mm_kconfig =
    "config SPARSEMEM_VMEMMAP\n"
    "\tbool \"Sparse Memory virtual memmap\"\n"
    "\tdepends on SPARSEMEM && SPARSEMEM_VMEMMAP_ENABLE\n"
    "\n"
    "if MMU\n"
    "config ZONE_DEVICE\n"
    "\tbool \"Device memory (pmem, HMM, etc...) hotplug support\"\n"
    "\tdepends on MEMORY_HOTPLUG\n"
    "\tdepends on MEMORY_HOTREMOVE\n"
    "\tdepends on SPARSEMEM_VMEMMAP\n"
    "endif\n"
    "config ND_PFN\n"
    "\ttristate\n"
    "\tdefault LIBNVDIMM\n"
    "menuconfig MMU\n"
    "\tbool \"MMU\"\n";

TEST(KconfigIndexTest, ExplainsAnUnmetDependency) {
  KconfigIndex index;
  index.add_file(k_mm_kconfig, "mm/Kconfig");
  EXPECT_TRUE(index.knows("ZONE_DEVICE"));
  EXPECT_TRUE(index.knows("MMU"));
  EXPECT_FALSE(index.knows("NO_SUCH_THING"));
  const auto& definition = index.definitions("ZONE_DEVICE").at(0);
  EXPECT_EQ(definition.line, 6);
  ASSERT_EQ(definition.depends.size(), 4u);
  EXPECT_EQ(definition.depends[0], "MMU");  // from the enclosing if

  const DotConfig config = parse_dot_config(
      "CONFIG_MMU=y\nCONFIG_MEMORY_HOTPLUG=y\nCONFIG_MEMORY_HOTREMOVE=y\n"
      "# CONFIG_SPARSEMEM_VMEMMAP is not set\n");
  const Dropped dropped{{"ZONE_DEVICE", "y", "kernel-configs/fragments/pmem.config", 14}, "n"};
  const std::string text = explain_dropped(dropped, index, config);
  EXPECT_EQ(text,
            "CONFIG_ZONE_DEVICE=y (pmem.config:14) is n: mm/Kconfig:6 depends on MMU && "
            "MEMORY_HOTPLUG && MEMORY_HOTREMOVE && SPARSEMEM_VMEMMAP; unmet: SPARSEMEM_VMEMMAP=n");
}

TEST(KconfigIndexTest, SaysWhenASymbolHasNoPrompt) {
  KconfigIndex index;
  index.add_file(k_mm_kconfig, "mm/Kconfig");
  const Dropped dropped{{"ND_PFN", "n", "f.config", 1}, "y"};
  const std::string text = explain_dropped(dropped, index, {});
  EXPECT_NE(text.find("it has no prompt"), std::string::npos) << text;
}

// Shaped like the memory model choice of mm/Kconfig in 6.12.
const char* k_memory_model =
    "config SELECT_MEMORY_MODEL\n"
    "\tdef_bool y\n"
    "\tdepends on ARCH_SELECT_MEMORY_MODEL\n"
    "choice\n"
    "\tprompt \"Memory model\"\n"
    "\tdepends on SELECT_MEMORY_MODEL\n"
    "\tdefault SPARSEMEM_MANUAL if ARCH_SPARSEMEM_DEFAULT\n"
    "config FLATMEM_MANUAL\n"
    "\tbool \"Flat Memory\"\n"
    "config SPARSEMEM_MANUAL\n"
    "\tbool \"Sparse Memory\"\n"
    "endchoice\n"
    "config ARCH_SELECT_MEMORY_MODEL\n"
    "\tbool\n";

TEST(KconfigIndexTest, ExplainsAChoiceThatIsNotOffered) {
  KconfigIndex index;
  index.add_file(k_memory_model, "mm/Kconfig");
  const auto& definition = index.definitions("SPARSEMEM_MANUAL").at(0);
  ASSERT_EQ(definition.choice, 0);
  EXPECT_EQ(index.choice(0).members,
            (std::vector<std::string>{"FLATMEM_MANUAL", "SPARSEMEM_MANUAL"}));
  const Dropped dropped{{"SPARSEMEM_MANUAL", "y", "section-in-page-flags.config", 6}, "n"};
  const std::string text = explain_dropped(dropped, index, parse_dot_config("CONFIG_X=y\n"));
  EXPECT_NE(text.find("a member of the choice at mm/Kconfig:4 (\"Memory model\"), which depends "
                      "on SELECT_MEMORY_MODEL; unmet: SELECT_MEMORY_MODEL=n (the choice is not "
                      "offered"),
            std::string::npos)
      << text;
}

TEST(KconfigIndexTest, NamesTheMemberChosenInstead) {
  KconfigIndex index;
  index.add_file(k_memory_model, "mm/Kconfig");
  const Dropped dropped{{"SPARSEMEM_MANUAL", "y", "f.config", 1}, "n"};
  const std::string text = explain_dropped(
      dropped, index, parse_dot_config("CONFIG_SELECT_MEMORY_MODEL=y\nCONFIG_FLATMEM_MANUAL=y\n"));
  EXPECT_NE(text.find("chosen instead: CONFIG_FLATMEM_MANUAL=y"), std::string::npos) << text;
  EXPECT_EQ(text.find("unmet"), std::string::npos) << text;
}

TEST(KconfigIndexTest, UnknownSymbol) {
  KconfigIndex index;
  const Dropped dropped{{"ZONE_DEVIC", "y", "f.config", 2}, "n"};
  EXPECT_NE(explain_dropped(dropped, index, {}).find("no Kconfig file defines it"),
            std::string::npos);
}

// std::regex recursed per character and died with SIGSEGV on a 1 MB line
// (shown on the old code: exit 139); the plain readers take it.
TEST(KconfigIndexTest, AMegabyteLineIsReadNotACrash) {
  const std::string long_symbol(1 << 20, 'A');
  KconfigIndex index;
  index.add_file("if " + long_symbol + "\nconfig X\n\tbool \"" + long_symbol + "\"\n\tdepends on " +
                     long_symbol + " && B\nendif\nchoice\n\tprompt \"" + long_symbol +
                     "\"\nconfig " + long_symbol + "\nendchoice\n",
                 "K");
  ASSERT_TRUE(index.knows("X"));
  const auto& x = index.definitions("X").front();
  EXPECT_TRUE(x.has_prompt);
  EXPECT_EQ(x.depends, (std::vector<std::string>{long_symbol, long_symbol + " && B"}));
  ASSERT_TRUE(index.knows(long_symbol));
  EXPECT_EQ(index.choice(0).prompt, long_symbol);
  const Dropped dropped{{"X", "y", "f.config", 1}, "n"};
  EXPECT_NE(explain_dropped(dropped, index, {}).find("unmet: " + long_symbol + "=n"),
            std::string::npos);
}

// What the regular expressions accepted, kept.
TEST(KconfigIndexTest, SameLinesAsTheRegularExpressions) {
  KconfigIndex index;
  index.add_file(
      "menuconfig A  \n\tprompt\n\tdepends  on  B || C \n"
      "config B\n\tbool x\n\tdepends on\n"
      "config C D\n"
      "choice\n\tprompt \"one \"two\" three\n\tdepends on aB_C\nconfig E\nendchoice\n",
      "K");
  ASSERT_TRUE(index.knows("A"));
  EXPECT_FALSE(index.definitions("A").front().has_prompt);  // "prompt" needs a space after it
  EXPECT_EQ(index.definitions("A").front().depends, std::vector<std::string>{"B || C"});
  EXPECT_FALSE(index.definitions("B").front().has_prompt);  // a type prompt is quoted
  EXPECT_TRUE(index.definitions("B").front().depends.empty());
  EXPECT_FALSE(index.knows("C"));
  EXPECT_EQ(index.choice(0).prompt, "one \"two");
  EXPECT_EQ(index.choice(0).depends, std::vector<std::string>{"aB_C"});
}

}  // namespace
}  // namespace kseries::kernel
