#pragma once
// One built kernel against a series' changed lines, end to end: its line
// table, the cover files of its boots, its .config and tree for the
// reasons, judged line by line. What `kseries coverage` prints and what
// the gate's coverage stage (gate/gate.cc) merges over its coverage cells.

#include <git2.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "coverage/changed_lines.h"
#include "coverage/cover_file.h"
#include "coverage/line_coverage.h"
#include "git/store.h"
#include "series/series.h"

namespace kseries::coverage {

// The changed lines of the first K patches of SERIES, and the text of each
// file they sit in, read from TREE (the commit after those K patches).
//
// The whole analysis (changed lines, their line-table rows, the cover
// files, the reasons) costs time linear in its inputs: the series' hunk
// lines (times a log), the texts of the changed files, the line table's
// rows and the cover files' lines; a changed line costs a bounded amount
// of work however deep it is nested or far into its file
// (source_context.h). Memory holds the changed lines, their files' texts
// and rows, and of the cover files only the addresses of those rows.
struct SeriesLines {
  std::vector<ChangedLine> lines;
  std::size_t k = 0;
  std::set<std::string> paths;               // the files the lines at prefix K sit in
  std::map<std::string, std::string> texts;  // path -> its text in TREE
};
SeriesLines series_lines(const Series& series, std::size_t k, git::Store& store,
                         const git_oid& tree);

struct KernelInput {
  std::filesystem::path vmlinux;               // with a DWARF line table
  std::vector<std::filesystem::path> modules;  // .ko files whose line tables count too
  std::filesystem::path config;                // its .config ("" or missing: every symbol unset)
  std::filesystem::path source;                // the tree it was built from ("": no Kconfig chains)
  std::filesystem::path configs;               // kernel-configs: the targets that may set a symbol
  std::set<std::string> matrix;                // the matrix's targets (empty: all of configs)
  std::string arch = "x86_64";
  std::vector<std::filesystem::path> cover;  // its boots' cover files (none: compiled only)
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

struct KernelCoverage {
  std::vector<LineVerdict> verdicts;  // point into the SeriesLines given
  CoverageSummary summary;
  std::size_t rows = 0;          // line-table rows in the changed files
  std::size_t executed_pcs = 0;  // distinct executed addresses in the cover files
};
// A cover file cut short is read as far as it goes (PROGRESS says so).
KernelCoverage analyse_kernel(const SeriesLines& lines, const KernelInput& input);

}  // namespace kseries::coverage
