#pragma once
// A revision's coverage over the gate's coverage cells: each cell (a
// coverage target x a case, booted with the plugin's cover mode) judged on
// its own (analysis.h), then merged line by line: compiled in which
// targets, executed in which cells, never compiled anywhere and why. And
// the matrix's coverage policy (`coverage: min=PCT`, `coverage: require
// FILE:FIRST-LAST`), judged on the merge.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "coverage/analysis.h"

namespace kseries::coverage {

struct CellLines {
  std::string cell;    // "pmem-coverage memmap-equivalence"
  std::string target;  // "pmem-coverage"
  std::size_t cover_files = 0;
  KernelCoverage coverage;  // verdicts over one SeriesLines, shared by every cell
};

struct MergedLine {
  // The merged status: executed in any cell, else compiled in any target,
  // else never compiled (the reason from a target that never compiled it),
  // else not counted.
  LineVerdict verdict;
  std::vector<std::string> compiled_in;  // targets
  std::vector<std::string> executed_in;  // cells
};

struct RevisionCoverage {
  std::vector<CellLines> cells;
  std::vector<MergedLine> lines;
  CoverageSummary summary;
  std::string summary_line;  // "coverage: N of M changed lines executed; ..."
};

// CELLS must be judged over the same SeriesLines (same order of lines).
RevisionCoverage merge_cells(std::vector<CellLines> cells);

// Per cell, one line: what it executed, and of the lines other cells ran,
// what became of them here ("never compiled here: KASAN: target kasan x20").
std::vector<std::string> cell_lines_text(const RevisionCoverage& coverage);

// The report: the summary line, one line per cell, then per changed line
// "patch file:line status [compiled in T; executed in C] | text".
std::string revision_coverage_text(const RevisionCoverage& coverage);
// The merge as coverage.json keeps it (results::to_json writes it).
results::CoverageRecord revision_coverage_record(const RevisionCoverage& coverage);

struct RequiredRange {
  std::string file;
  int first = 0, last = 0;
  std::string where;  // the matrix line that asks: "default.matrix:12"
};

struct CoveragePolicy {
  std::optional<double> min_percent;  // of the counted changed lines, executed
  std::vector<RequiredRange> require;
  bool empty() const { return !min_percent && require.empty(); }
};

// "min=80" or "require mm/mm_init.c:1040-1062" (one line); Error(k_usage)
// naming WHERE for anything else.
void add_policy_line(CoveragePolicy& policy, const std::string& text, const std::string& where);

// What the revision fails of POLICY, one line each ("" none). A require
// range with no changed line of code in it fails too: a policy naming
// lines the series does not change checks nothing.
std::vector<std::string> policy_failures(const RevisionCoverage& coverage,
                                         const CoveragePolicy& policy);

}  // namespace kseries::coverage
