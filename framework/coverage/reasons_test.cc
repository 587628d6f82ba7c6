#include "coverage/reasons.h"

#include <gtest/gtest.h>

#include "coverage/cpp_condition.h"
#include "coverage/source_context.h"

namespace kseries::coverage {
namespace {

const char* k_mm_init =
    "#ifdef CONFIG_ZONE_DEVICE\n"                // 1
    "static void init_one(struct page *page)\n"  // 2
    "{\n"                                        // 3
    "#ifdef SECTION_IN_PAGE_FLAGS\n"             // 4
    "\tset_page_section(page, 1);\n"             // 5
    "#elif defined(WANT_PAGE_VIRTUAL)\n"         // 6
    "\tpage->virtual = NULL;\n"                  // 7
    "#else\n"                                    // 8
    "\tpage->flags = 0;\n"                       // 9
    "#endif\n"                                   // 10
    "\tif (IS_ENABLED(CONFIG_KASAN) ||\n"        // 11
    "\t    IS_ENABLED(CONFIG_KMSAN))\n"          // 12
    "\t\treturn;\n"                              // 13
    "\tif (!IS_ENABLED(CONFIG_KASAN)) {\n"       // 14
    "\t\tfast(page); /* { not a brace */\n"      // 15
    "\t}\n"                                      // 16
    "}\n"                                        // 17
    "#endif /* CONFIG_ZONE_DEVICE */\n"          // 18
    "#define TWO(x) \\\n"                        // 19
    "\t((x) + 2)\n";                             // 20

TEST(SourceContextTest, FindsTheIfBlocksAroundALine) {
  const SourceText source(k_mm_init);
  const auto at5 = source.conditions(5);
  ASSERT_EQ(at5.size(), 2u);
  EXPECT_EQ(at5[0].text(), "#ifdef CONFIG_ZONE_DEVICE");
  EXPECT_EQ(at5[0].expression(), "(defined(CONFIG_ZONE_DEVICE))");
  EXPECT_EQ(at5[1].line, 4);
  EXPECT_EQ(at5[1].expression(), "(defined(SECTION_IN_PAGE_FLAGS))");
  // An #elif branch: the earlier branch false, its own true.
  const auto at7 = source.conditions(7);
  ASSERT_EQ(at7.size(), 2u);
  EXPECT_EQ(at7[1].line, 6);
  EXPECT_EQ(at7[1].expression(),
            "!(defined(SECTION_IN_PAGE_FLAGS)) && (defined(WANT_PAGE_VIRTUAL))");
  const auto at9 = source.conditions(9);
  ASSERT_EQ(at9.size(), 2u);
  EXPECT_EQ(at9[1].text(), "#else");
  EXPECT_EQ(at9[1].expression(),
            "!(defined(SECTION_IN_PAGE_FLAGS)) && !(defined(WANT_PAGE_VIRTUAL))");
  EXPECT_TRUE(source.conditions(19).empty());  // after the #endif
  // An include guard always holds.
  const SourceText guarded("#ifndef _X_H\n#define _X_H\nint x;\n#endif\n");
  ASSERT_EQ(guarded.conditions(3).size(), 1u);
  EXPECT_EQ(guarded.conditions(3)[0].expression(), "(1)");
  EXPECT_EQ(SourceText("#ifndef A\n#define B\nint x;\n#endif\n").conditions(3)[0].expression(),
            "(!defined(A))");
}

TEST(SourceContextTest, FindsTheIsEnabledStatementsAroundALine) {
  const SourceText source(k_mm_init);
  const auto at13 = source.conditions(13);  // a brace-less if over two lines
  ASSERT_EQ(at13.size(), 2u);
  EXPECT_EQ(at13[1].kind, EnclosingCondition::Kind::k_if_statement);
  EXPECT_EQ(at13[1].line, 11);
  EXPECT_EQ(at13[1].expression(), "IS_ENABLED(CONFIG_KASAN) || IS_ENABLED(CONFIG_KMSAN)");
  const auto at15 = source.conditions(15);  // inside a braced if
  ASSERT_EQ(at15.size(), 2u);
  EXPECT_EQ(at15[1].line, 14);
  EXPECT_EQ(at15[1].expression(), "!IS_ENABLED(CONFIG_KASAN)");
  EXPECT_EQ(source.conditions(9).size(), 2u);  // no if around line 9
}

TEST(SourceContextTest, TellsMacrosCodelessLinesAndFunctions) {
  const SourceText source(k_mm_init);
  EXPECT_TRUE(source.in_macro_definition(19));
  EXPECT_TRUE(source.in_macro_definition(20));  // a continuation
  EXPECT_FALSE(source.in_macro_definition(5));
  EXPECT_TRUE(source.holds_no_code(16));  // "}"
  EXPECT_TRUE(source.holds_no_code(4));   // a directive
  EXPECT_FALSE(source.holds_no_code(15));
  const auto function = source.function_at(9);
  ASSERT_TRUE(function);
  EXPECT_EQ(function->name, "init_one");
  EXPECT_EQ(function->first, 3);
  EXPECT_EQ(function->last, 17);
  EXPECT_FALSE(source.function_at(19));
}

TEST(CppConditionTest, EvaluatesAgainstAConfigInThreeValues) {
  ConditionEnvironment env;
  env.config = [](const std::string& symbol) -> std::string {
    return symbol == "ZONE_DEVICE" ? "y" : symbol == "NR" ? "4" : symbol == "MOD" ? "m" : "";
  };
  EXPECT_EQ(evaluate_condition("defined(CONFIG_ZONE_DEVICE)", env).value, true);
  EXPECT_EQ(evaluate_condition("defined CONFIG_KASAN", env).value, false);
  EXPECT_EQ(evaluate_condition("IS_ENABLED(CONFIG_MOD) && !IS_BUILTIN(CONFIG_MOD)", env).value,
            true);
  EXPECT_EQ(evaluate_condition("CONFIG_NR > 3 && CONFIG_NR <= 4", env).value, true);
  EXPECT_EQ(evaluate_condition("defined(FOO)", env).value, std::nullopt);  // undecided
  EXPECT_EQ(evaluate_condition("defined(FOO) && 0", env).value, false);    // decided anyway
  EXPECT_EQ(evaluate_condition("defined(FOO) || CONFIG_ZONE_DEVICE", env).value, true);
  EXPECT_EQ(evaluate_condition("x(", env).value, std::nullopt);  // unreadable: undecided
  const auto value = evaluate_condition("defined(SECTION_IN_PAGE_FLAGS) /* c */ && CONFIG_X", env);
  EXPECT_EQ(value.macros, std::set<std::string>{"SECTION_IN_PAGE_FLAGS"});
  EXPECT_EQ(value.symbols, std::set<std::string>{"X"});
  EXPECT_EQ(evaluate_condition(std::string(100000, '('), env).value, std::nullopt);
}

// The tree of the seeds, in small: SECTION_IN_PAGE_FLAGS comes from
// SPARSEMEM && !SPARSEMEM_VMEMMAP, which ZONE_DEVICE depends on;
// WANT_PAGE_VIRTUAL only from another architecture's header.
TreeFacts seed_facts(kernel::KconfigIndex& kconfig) {
  kconfig.add_file(
      "config SPARSEMEM\n\tbool\nconfig SPARSEMEM_VMEMMAP\n\tbool \"vmemmap\"\n"
      "\tdepends on SPARSEMEM\nconfig ZONE_DEVICE\n\tbool \"zone device\"\n"
      "\tdepends on MEMORY_HOTPLUG && SPARSEMEM_VMEMMAP\nconfig KASAN\n\tbool \"kasan\"\n"
      "config MEMORY_HOTPLUG\n\tbool \"hotplug\"\n",
      "mm/Kconfig");
  TreeFacts facts;
  facts.config = {{"SPARSEMEM", "y"},
                  {"SPARSEMEM_VMEMMAP", "y"},
                  {"ZONE_DEVICE", "y"},
                  {"MEMORY_HOTPLUG", "y"}};
  facts.kconfig = &kconfig;
  const std::set<std::string> names = {"SECTION_IN_PAGE_FLAGS", "WANT_PAGE_VIRTUAL"};
  facts.macros.add_text("include/linux/mm.h",
                        "#if defined(CONFIG_SPARSEMEM) && !defined(CONFIG_SPARSEMEM_VMEMMAP)\n"
                        "#define SECTION_IN_PAGE_FLAGS\n#endif\n",
                        names);
  facts.macros.add_text("arch/m68k/include/asm/page.h", "#define WANT_PAGE_VIRTUAL\n", names);
  facts.targets["kasan"] = {{"KASAN", "y", "kasan.config", 1}};
  facts.targets["section-in-page-flags"] = {{"SPARSEMEM_VMEMMAP", "n", "s.config", 1}};
  return facts;
}

TEST(ReasonsTest, AMacroOnlyAnotherArchitectureDefinesIsImpossibleHere) {
  kernel::KconfigIndex kconfig;
  const TreeFacts facts = seed_facts(kconfig);
  const ReasonFinder finder(facts);
  const SourceText source(k_mm_init);
  const auto reason = finder.explain(source.conditions(7));
  ASSERT_TRUE(reason);
  EXPECT_TRUE(reason->impossible);
  EXPECT_EQ(reason->key, "WANT_PAGE_VIRTUAL: not possible on x86_64 (only m68k define it)");
}

TEST(ReasonsTest, ASymbolTheLineNeedsOffThatAnEnclosingSymbolDependsOnIsImpossible) {
  kernel::KconfigIndex kconfig;
  const TreeFacts facts = seed_facts(kconfig);
  const ReasonFinder finder(facts);
  const SourceText source(k_mm_init);
  const auto reason = finder.explain(source.conditions(5));
  ASSERT_TRUE(reason);
  EXPECT_TRUE(reason->impossible);
  EXPECT_EQ(reason->key.substr(0, 22), "SECTION_IN_PAGE_FLAGS:");
  bool chain = false;
  for (const auto& detail : reason->details) {
    chain = chain || detail.find(
                         "needs CONFIG_SPARSEMEM_VMEMMAP=n (this kernel: y): not possible "
                         "on x86_64 with CONFIG_ZONE_DEVICE, which (mm/Kconfig:6) depends "
                         "on MEMORY_HOTPLUG && SPARSEMEM_VMEMMAP") != std::string::npos;
  }
  EXPECT_TRUE(chain) << reason->details.size();
}

TEST(ReasonsTest, ASymbolATargetSetsNamesTheTarget) {
  kernel::KconfigIndex kconfig;
  const TreeFacts facts = seed_facts(kconfig);
  const ReasonFinder finder(facts);
  const SourceText source(k_mm_init);
  const auto reason = finder.explain(source.conditions(13));
  ASSERT_TRUE(reason);
  EXPECT_FALSE(reason->impossible);
  EXPECT_EQ(reason->key, "KASAN: target kasan");
  // Judged for a matrix without kasan: the target is named, outside it.
  TreeFacts in_matrix = seed_facts(kconfig);
  in_matrix.matrix = {"pmem", "section-in-page-flags"};
  const auto outside = ReasonFinder(in_matrix).explain(source.conditions(13));
  ASSERT_TRUE(outside);
  EXPECT_EQ(outside->key, "KASAN: no target of this matrix (kasan would, outside it)");
  EXPECT_FALSE(finder.explain(source.conditions(15)));  // !KASAN holds here
  EXPECT_FALSE(finder.explain(source.conditions(9)));   // the #else branch is compiled
  // An undecided condition alone explains nothing.
  EXPECT_FALSE(
      finder.explain({{EnclosingCondition::Kind::k_preprocessor, 1, "#if FOO > 2", "FOO > 2"}}));
  // kbuild's own -D__KERNEL__ is known.
  EXPECT_TRUE(finder.explain({{EnclosingCondition::Kind::k_preprocessor, 1, "#ifndef __KERNEL__",
                               "!defined(__KERNEL__)"}}));
}

// string.h's generic memcpy_nontemporal(), under #ifndef memcpy_nontemporal:
// x86 defines its own when ARCH_HAS_UACCESS_FLUSHCACHE, which X86 selects
// if X86_64 (both def_bool y, no prompt): the fallback cannot be compiled
// on x86_64, whatever a target asks.
TEST(ReasonsTest, ASymbolTheArchitectureSelectsCannotBeTurnedOff) {
  kernel::KconfigIndex kconfig;
  kconfig.add_file(
      "config X86_64\n\tdef_bool y\n\tdepends on 64BIT\n"
      "config X86\n\tdef_bool y\n\tselect ARCH_HAS_UACCESS_FLUSHCACHE\tif X86_64 # nt\n"
      "\tselect OPTIONAL_THING if FOO\n"
      "config FOO\n\tbool \"foo\"\n",
      "arch/x86/Kconfig");
  kconfig.add_file("config ARCH_HAS_UACCESS_FLUSHCACHE\n\tbool\nconfig OPTIONAL_THING\n\tbool\n",
                   "lib/Kconfig");
  ASSERT_EQ(kconfig.selected_by("ARCH_HAS_UACCESS_FLUSHCACHE").size(), 1u);
  EXPECT_EQ(kconfig.selected_by("ARCH_HAS_UACCESS_FLUSHCACHE")[0].condition, "X86_64");
  EXPECT_EQ(kconfig.selected_by("ARCH_HAS_UACCESS_FLUSHCACHE")[0].line, 6);
  TreeFacts facts;
  facts.config = {{"X86_64", "y"},
                  {"X86", "y"},
                  {"ARCH_HAS_UACCESS_FLUSHCACHE", "y"},
                  {"FOO", "y"},
                  {"OPTIONAL_THING", "y"}};
  facts.kconfig = &kconfig;
  const std::set<std::string> names = {"memcpy_nontemporal", "optional_thing"};
  facts.macros.add_text("arch/x86/include/asm/string_64.h",
                        "#ifdef CONFIG_ARCH_HAS_UACCESS_FLUSHCACHE\n"
                        "#define memcpy_nontemporal memcpy_nontemporal\n#endif\n"
                        "#ifdef CONFIG_OPTIONAL_THING\n#define optional_thing 1\n#endif\n",
                        names);
  const ReasonFinder finder(facts);
  const SourceText source(
      "#ifndef memcpy_nontemporal\nstatic void memcpy_nontemporal(void) {}\n#endif\n"
      "#ifndef optional_thing\nstatic void optional_thing(void) {}\n#endif\n");
  const auto reason = finder.explain(source.conditions(2));
  ASSERT_TRUE(reason);
  EXPECT_TRUE(reason->impossible) << reason->key;
  EXPECT_EQ(reason->key,
            "memcpy_nontemporal: not possible on x86_64 (CONFIG_ARCH_HAS_UACCESS_FLUSHCACHE=y: "
            "arch/x86/Kconfig:6: X86 selects it if X86_64)");
  // FOO has a prompt: a configuration can turn it off, so OPTIONAL_THING
  // can be off too; no target here does it.
  const auto optional = finder.explain(source.conditions(5));
  ASSERT_TRUE(optional);
  EXPECT_FALSE(optional->impossible) << optional->key;
  EXPECT_EQ(optional->key, "optional_thing: no target of this matrix");
}

}  // namespace
}  // namespace kseries::coverage
