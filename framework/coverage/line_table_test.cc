#include "coverage/line_table.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "coverage/line_coverage.h"
#include "sys/process.h"
#include "testing/temp_dir.h"

namespace kseries::coverage {
namespace {

// A header with a static inline function (line 4) and a macro (line 2)
// that two objects use: the compiler's real line table, from gcc -g.
const char* k_header =
    "#pragma once\n"                                         // 1
    "#define TWICE(x) ((x) * 2 + side_effect())\n"           // 2
    "int side_effect(void);\n"                               // 3
    "static inline int add_one(int v) { return v + 1; }\n";  // 4

const char* k_a =
    "#include \"inc/h.h\"\n"                 // 1
    "int side_effect(void) { return 0; }\n"  // 2
    "int a(int v) {\n"                       // 3
    "  int w = add_one(v);\n"                // 4
    "  return TWICE(w);\n"                   // 5
    "}\n"                                    // 6
    "int main(void) { return a(1); }\n";     // 7

const char* k_b =
    "#include \"inc/h.h\"\n"      // 1
    "int b(int v) {\n"            // 2
    "  return add_one(v) + 3;\n"  // 3
    "}\n";                        // 4

// Compiles the toy tree into DIR/toy; skips the test without gcc.
std::filesystem::path compile_toy(const testing::TempDir& dir) {
  testing::put_file(dir / "src/inc/h.h", k_header);
  testing::put_file(dir / "src/a.c", k_a);
  testing::put_file(dir / "src/b.c", k_b);
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"gcc",
               "-g",
               "-O0",
               "-o",
               (dir / "toy").string(),
               (dir / "src/a.c").string(),
               (dir / "src/b.c").string()};
  spec.cwd = dir.path();
  spec.timeout = std::chrono::seconds(60);
  const auto result = runner.run(spec);
  if (!result.ok()) {
    throw std::runtime_error("gcc failed: " + result.describe() + " " + result.err);
  }
  return dir / "toy";
}

const std::set<std::string> k_wanted = {"a.c", "b.c", "inc/h.h"};

TEST(LineTableTest, MatchesARowByItsPathSuffix) {
  EXPECT_EQ(match_wanted("/tmp/x/src/inc/h.h", k_wanted), "inc/h.h");
  EXPECT_EQ(match_wanted("./src/../src/a.c", k_wanted), "a.c");
  EXPECT_EQ(match_wanted("/tmp/x/src/xa.c", k_wanted), "");
  // The longer wanted path wins ("include/linux/mm.h" over "linux/mm.h").
  EXPECT_EQ(match_wanted("/k/include/linux/mm.h", {"linux/mm.h", "include/linux/mm.h"}),
            "include/linux/mm.h");
}

TEST(LineTableTest, AHeaderLineCompiledIntoTwoObjectsHasBothUnits) {
  const testing::TempDir dir;
  const auto table = read_line_table(compile_toy(dir), k_wanted);
  const LineCode* inline_body = table.find("inc/h.h", 4);
  ASSERT_NE(inline_body, nullptr);
  EXPECT_EQ(inline_body->units.size(), 2u);  // a.c's copy and b.c's copy of add_one()
  EXPECT_GE(inline_body->ranges.size(), 2u);
  const LineCode* b_body = table.find("b.c", 3);
  ASSERT_NE(b_body, nullptr);
  EXPECT_EQ(b_body->units.size(), 1u);
  EXPECT_TRUE(table.has_file("a.c"));
  EXPECT_EQ(table.find("inc/h.h", 3), nullptr);  // a declaration: no code
}

TEST(LineTableTest, AMacroIsCreditedToTheLineThatExpandsIt) {
  const testing::TempDir dir;
  const auto table = read_line_table(compile_toy(dir), k_wanted);
  EXPECT_EQ(table.find("inc/h.h", 2), nullptr);  // the #define: never a row
  EXPECT_NE(table.find("a.c", 5), nullptr);      // TWICE(w): its code is here
}

TEST(LineTableTest, JudgesExecutedCompiledAndMacroLines) {
  const testing::TempDir dir;
  const auto table = read_line_table(compile_toy(dir), k_wanted);
  // Changed lines: the header's #define and inline body, a.c:5, b.c:3.
  std::vector<ChangedLine> lines;
  for (const auto& [path, line] : std::vector<std::pair<std::string, int>>{
           {"inc/h.h", 2}, {"inc/h.h", 4}, {"a.c", 5}, {"b.c", 3}}) {
    ChangedLine changed;
    changed.text = "x";
    changed.at = {Position{path, line}};
    lines.push_back(changed);
  }
  // "Executed": the first address of a.c:5's code only.
  const LineCode* a5 = table.find("a.c", 5);
  ASSERT_NE(a5, nullptr);
  const std::vector<ExecutedPc> executed = {{a5->ranges.front().begin, 7}};
  CoverageInput input;
  input.table = &table;
  input.executed = &executed;
  input.read_source = [](const std::string& path) -> std::optional<std::string> {
    if (path == "inc/h.h") {
      return std::string(k_header);
    }
    return path == "a.c" ? std::string(k_a) : std::string(k_b);
  };
  const auto verdicts = judge_lines(lines, input);
  ASSERT_EQ(verdicts.size(), 4u);
  EXPECT_EQ(verdicts[0].status, LineStatus::k_macro);
  EXPECT_EQ(verdicts[1].status, LineStatus::k_compiled);
  EXPECT_EQ(verdicts[1].units, 2u);
  EXPECT_EQ(verdicts[2].status, LineStatus::k_executed);
  EXPECT_EQ(verdicts[2].executions, 7u);
  EXPECT_EQ(verdicts[3].status, LineStatus::k_compiled);
  const auto summary = summarise(verdicts, true);
  EXPECT_EQ(summary.changed, 3u);
  EXPECT_EQ(summary.executed, 1u);
  EXPECT_EQ(summary.macro, 1u);
  EXPECT_EQ(summary_line(verdicts, summary),
            "coverage: 1 of 3 changed lines executed; 0 never compiled, 2 compiled, never run "
            "(inc/h.h:4; b.c:3); not counted: 0 without code of their own, 1 in macro "
            "definitions");
}

TEST(LineTableTest, AFileWithoutDebugInformationIsAUsageError) {
  const testing::TempDir dir;
  testing::put_file(dir / "not-elf", "hello\n");
  EXPECT_THROW(read_line_table(dir / "not-elf", k_wanted), Error);
}

}  // namespace
}  // namespace kseries::coverage
