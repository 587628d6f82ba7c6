#include "coverage/revision_coverage.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json_text.h"
#include "results/coverage_record.h"

namespace kseries::coverage {
namespace {

// Three changed lines: a fast-path line KASAN compiles out, a slow-path
// line both run, a WANT_PAGE_VIRTUAL line nobody compiles.
struct Fixture {
  std::vector<ChangedLine> lines;
  Fixture() {
    for (int n : {10, 20, 30}) {
      ChangedLine line;
      line.patch = 0;
      line.text = "line " + std::to_string(n);
      line.at = {Position{"mm/mm_init.c", n}};
      lines.push_back(line);
    }
  }
  LineVerdict verdict(int i, LineStatus status, const std::string& reason = "") const {
    LineVerdict v;
    v.line = &lines[i];
    v.position = *lines[i].tip();
    v.status = status;
    v.executions = status == LineStatus::k_executed ? 5 : 0;
    if (!reason.empty()) {
      v.reason = NeverCompiled{reason, {}, false};
    }
    return v;
  }
  CellLines cell(const std::string& name, const std::string& target,
                 std::vector<LineVerdict> verdicts, std::size_t covers = 1) const {
    CellLines c;
    c.cell = name;
    c.target = target;
    c.cover_files = covers;
    c.coverage.verdicts = std::move(verdicts);
    c.coverage.summary = summarise(c.coverage.verdicts, covers > 0);
    return c;
  }
};

RevisionCoverage seed_like(const Fixture& f) {
  return merge_cells(
      {f.cell("pmem-coverage memmap-equivalence", "pmem-coverage",
              {f.verdict(0, LineStatus::k_executed), f.verdict(1, LineStatus::k_executed),
               f.verdict(2, LineStatus::k_never_compiled, "WANT_PAGE_VIRTUAL: not possible")}),
       f.cell("kasan-coverage memmap-equivalence", "kasan-coverage",
              {f.verdict(0, LineStatus::k_never_compiled, "KASAN: target kasan"),
               f.verdict(1, LineStatus::k_executed),
               f.verdict(2, LineStatus::k_never_compiled, "WANT_PAGE_VIRTUAL: not possible")})});
}

TEST(RevisionCoverageTest, MergesCompiledAndExecutedAcrossCells) {
  const Fixture f;
  const auto merged = seed_like(f);
  ASSERT_EQ(merged.lines.size(), 3u);
  EXPECT_EQ(merged.lines[0].verdict.status, LineStatus::k_executed);
  EXPECT_EQ(merged.lines[0].compiled_in, std::vector<std::string>{"pmem-coverage"});
  EXPECT_EQ(merged.lines[0].executed_in,
            std::vector<std::string>{"pmem-coverage memmap-equivalence"});
  EXPECT_EQ(merged.lines[1].executed_in.size(), 2u);
  EXPECT_EQ(merged.lines[2].verdict.status, LineStatus::k_never_compiled);
  EXPECT_EQ(merged.lines[2].verdict.reason->key, "WANT_PAGE_VIRTUAL: not possible");
  // Never compiled in both cells for different reasons: both are said.
  const auto two = merge_cells(
      {f.cell("pmem x", "pmem",
              {f.verdict(0, LineStatus::k_never_compiled, "KASAN: target kasan"),
               f.verdict(1, LineStatus::k_executed), f.verdict(2, LineStatus::k_executed)}),
       f.cell("kasan x", "kasan",
              {f.verdict(0, LineStatus::k_never_compiled, "f(): no code in this kernel"),
               f.verdict(1, LineStatus::k_executed), f.verdict(2, LineStatus::k_executed)})});
  EXPECT_EQ(two.lines[0].verdict.reason->key,
            "KASAN: target kasan (on kasan: f(): no code in this kernel)");
  EXPECT_EQ(merged.summary.changed, 3u);
  EXPECT_EQ(merged.summary.executed, 2u);
  EXPECT_EQ(merged.summary_line.substr(0, 43), "coverage: 2 of 3 changed lines executed; 1 ");
  EXPECT_NE(merged.summary_line.find("WANT_PAGE_VIRTUAL: not possible"), std::string::npos);
  // The kasan cell: the fast-path line the pmem cell ran is compiled out here.
  const auto cells = cell_lines_text(merged);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1],
            "kasan-coverage memmap-equivalence: 1 of 3 changed lines executed (1 boot(s), 0 "
            "kernel addresses); of the lines other cells ran, 1 never compiled here (KASAN: "
            "target kasan x1), 0 compiled here, not run");
  const auto json = results::to_json(revision_coverage_record(merged));
  EXPECT_EQ(json["summary"]["executed"], 2);
  EXPECT_EQ(json["lines"][0]["executed_in"][0], "pmem-coverage memmap-equivalence");
  EXPECT_EQ(json["cells"].size(), 2u);
  EXPECT_NE(revision_coverage_text(merged).find(
                "mm/mm_init.c:10 executed [compiled in pmem-coverage; executed in pmem-coverage "
                "memmap-equivalence]"),
            std::string::npos);
}

// coverage.json as the renderers read it (results/coverage_record.h): the
// writer here and that reader agree on every key they share.
TEST(RevisionCoverageTest, CoverageJsonReadsBackAsTheRenderersRecord) {
  const Fixture f;
  const auto merged = seed_like(f);
  const auto r = results::coverage_record_from(
      parse_json_text(json_text(results::to_json(revision_coverage_record(merged)))));
  EXPECT_EQ(r.summary_line, merged.summary_line);
  EXPECT_EQ(r.summary.changed, 3);
  EXPECT_EQ(r.summary.executed, 2);
  EXPECT_EQ(r.summary.compiled_not_run, static_cast<int>(merged.summary.compiled));
  EXPECT_EQ(r.summary.never_compiled, static_cast<int>(merged.summary.never_compiled));
  ASSERT_EQ(r.cells.size(), 2u);
  EXPECT_EQ(r.cells[1].cell, "kasan-coverage memmap-equivalence");
  EXPECT_EQ(r.cells[1].target, "kasan-coverage");
  EXPECT_EQ(r.cells[1].line, cell_lines_text(merged)[1]);
  EXPECT_EQ(r.cells[1].cover_files, 1);
  EXPECT_EQ(r.cells[1].counts.executed, 1);
  EXPECT_EQ(r.cells[1].counts.changed, 3);
  EXPECT_EQ(r.cells[1].counts.never_compiled, 2);
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0].patch, 1);
  EXPECT_EQ(r.lines[0].file, "mm/mm_init.c");
  EXPECT_EQ(r.lines[0].line, 10);
  EXPECT_EQ(r.lines[0].status, "executed");
  EXPECT_EQ(r.lines[0].text, "line 10");
  EXPECT_EQ(r.lines[0].compiled_in, merged.lines[0].compiled_in);
  EXPECT_EQ(r.lines[0].executed_in, merged.lines[0].executed_in);
  ASSERT_TRUE(r.lines[2].reason.has_value());
  EXPECT_EQ(r.lines[2].reason->key, "WANT_PAGE_VIRTUAL: not possible");
  // Every field the writer fills comes back as it was: the record is
  // the file's one spelling of its keys.
  auto record = revision_coverage_record(merged);
  record.series = "demo/v2";
  record.tree = "abc";
  EXPECT_EQ(results::coverage_record_from(parse_json_text(json_text(results::to_json(record)))),
            record);
}

TEST(RevisionCoverageTest, CompiledSomewhereButRunNowhereIsCompiled) {
  const Fixture f;
  const auto merged = merge_cells(
      {f.cell("a x", "a",
              {f.verdict(0, LineStatus::k_never_compiled, "K: no target"),
               f.verdict(1, LineStatus::k_no_code), f.verdict(2, LineStatus::k_compiled)}),
       f.cell("b x", "b",
              {f.verdict(0, LineStatus::k_compiled), f.verdict(1, LineStatus::k_no_code),
               f.verdict(2, LineStatus::k_compiled)})});
  EXPECT_EQ(merged.lines[0].verdict.status, LineStatus::k_compiled);
  EXPECT_FALSE(merged.lines[0].verdict.reason &&
               merged.lines[0].verdict.status == LineStatus::k_never_compiled);
  EXPECT_EQ(merged.lines[1].verdict.status, LineStatus::k_no_code);
  EXPECT_EQ(merged.lines[2].compiled_in, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(merged.summary.executed, 0u);
  EXPECT_EQ(merged.summary.compiled, 2u);
}

// pmem: the line has no code of its own (its code is credited to another
// line); kasan: its function is compiled out. Not counted, not "never
// compiled" on kasan's word alone.
TEST(RevisionCoverageTest, NoCodeOfItsOwnSomewhereIsNotCountedAsNeverCompiled) {
  const Fixture f;
  const auto merged = merge_cells(
      {f.cell("pmem x", "pmem",
              {f.verdict(0, LineStatus::k_no_code), f.verdict(1, LineStatus::k_executed),
               f.verdict(2, LineStatus::k_executed)}),
       f.cell("kasan x", "kasan",
              {f.verdict(0, LineStatus::k_never_compiled, "f(): no code in this kernel"),
               f.verdict(1, LineStatus::k_executed), f.verdict(2, LineStatus::k_executed)})});
  EXPECT_EQ(merged.lines[0].verdict.status, LineStatus::k_no_code);
  EXPECT_EQ(merged.summary.changed, 2u);
  EXPECT_EQ(merged.summary.never_compiled, 0u);
}

TEST(RevisionCoverageTest, CellsOfDifferentLinesAreRefused) {
  const Fixture f;
  EXPECT_THROW(merge_cells({f.cell("a x", "a", {f.verdict(0, LineStatus::k_executed)}),
                            f.cell("b x", "b", {})}),
               Error);
}

TEST(CoveragePolicyTest, ParsesAndRefusesLines) {
  CoveragePolicy policy;
  add_policy_line(policy, " min=80 ", "m.matrix:3");
  add_policy_line(policy, "require mm/mm_init.c:10-20", "m.matrix:4");
  add_policy_line(policy, "require mm/mm_init.c:30", "m.matrix:5");
  ASSERT_TRUE(policy.min_percent);
  EXPECT_EQ(*policy.min_percent, 80);
  ASSERT_EQ(policy.require.size(), 2u);
  EXPECT_EQ(policy.require[0].file, "mm/mm_init.c");
  EXPECT_EQ(policy.require[0].last, 20);
  EXPECT_EQ(policy.require[1].first, 30);
  EXPECT_EQ(policy.require[1].last, 30);
  for (const std::string bad : {"min=", "min=120", "min=x", "require mm.c", "require mm.c:9-3",
                                "require :1-2", "max=3", "require mm.c:-1"}) {
    try {
      add_policy_line(policy, bad, "m.matrix:9");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("m.matrix:9: coverage: ", 0), 0u) << e.what();
    }
  }
}

TEST(CoveragePolicyTest, FailsARevisionBelowTheMinimumOrMissingARequiredLine) {
  const Fixture f;
  const auto merged = seed_like(f);  // 2 of 3 executed: 66.7 %
  CoveragePolicy policy;
  add_policy_line(policy, "min=60", "m:1");
  EXPECT_TRUE(policy_failures(merged, policy).empty());
  add_policy_line(policy, "min=70", "m:1");
  auto failures = policy_failures(merged, policy);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0], "coverage: min=70: 2 of 3 changed lines executed (66.7 %), below 70 %");
  CoveragePolicy require;
  add_policy_line(require, "require mm/mm_init.c:10-20", "m:2");
  EXPECT_TRUE(policy_failures(merged, require).empty());
  add_policy_line(require, "require mm/mm_init.c:25-35", "m:3");
  failures = policy_failures(merged, require);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0],
            "coverage: require mm/mm_init.c:25-35 (m:3): 1 of 1 changed lines not executed; "
            "never compiled: mm/mm_init.c:30");
  // A range the series does not change checks nothing: it fails, never passes.
  CoveragePolicy nothing;
  add_policy_line(nothing, "require mm/other.c:1-100", "m:4");
  failures = policy_failures(merged, nothing);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("no changed line with code there"), std::string::npos);
}

}  // namespace
}  // namespace kseries::coverage
