#pragma once
// Each changed line of a series, judged against one built kernel: executed
// (its code ran in the boots whose cover files were given), compiled (the
// line table has code for it), never compiled (with the reason from the
// tree), or not counted: a line of a #define (the compiler puts a macro's
// code on each line that expands it) or a line with no code of its own (a
// comment, a declaration, a continuation of a statement).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "coverage/changed_lines.h"
#include "coverage/cover_file.h"
#include "coverage/line_table.h"
#include "coverage/reasons.h"
#include "results/coverage_record.h"

namespace kseries::coverage {

enum class LineStatus { k_executed, k_compiled, k_never_compiled, k_no_code, k_macro };

const char* status_name(LineStatus status);

struct LineVerdict {
  const ChangedLine* line = nullptr;
  Position position;  // in the tree the kernel was built from
  LineStatus status = LineStatus::k_no_code;
  std::size_t units = 0;                // objects whose code it is (a header's line: many)
  std::uint64_t executions = 0;         // the most any of its instructions ran (0: none, or no run)
  std::optional<NeverCompiled> reason;  // k_never_compiled
  std::string note;                     // k_no_code / k_macro / a function without code
};

struct CoverageInput {
  const LineTable* table = nullptr;
  const std::vector<ExecutedPc>* executed = nullptr;  // nullptr: no run given
  // The text of a file of the built tree, nullopt when it has none.
  std::function<std::optional<std::string>(const std::string& path)> read_source;
  const ReasonFinder* reasons = nullptr;
};

// Judges LINES where they sit after the patches they were read from. Time
// linear in the lines (and the texts of their files, each read once): the
// reasons are worked out once per set of enclosing conditions.
std::vector<LineVerdict> judge_lines(const std::vector<ChangedLine>& lines,
                                     const CoverageInput& input);

struct CoverageSummary {
  std::size_t changed = 0;  // counted: executed + compiled + never compiled
  std::size_t executed = 0, compiled = 0, never_compiled = 0, no_code = 0, macro = 0;
  bool ran = false;  // executed addresses were given
};
CoverageSummary summarise(const std::vector<LineVerdict>& verdicts, bool ran);

// "coverage: N of M changed lines executed; K never compiled (SYMBOL:
// reason, ...), J compiled, never run (file:lines, ...)".
std::string summary_line(const std::vector<LineVerdict>& verdicts, const CoverageSummary& summary);

// "mm/mm_init.c:1040-1045,1050; include/linux/mm.h:12": the lines of
// STATUS, by file in the order they come.
std::string line_ranges(const std::vector<LineVerdict>& verdicts, LineStatus status);

// One line per changed line: "patch file:line status [detail] | text".
std::string line_table_text(const std::vector<LineVerdict>& verdicts);
// One line of it: "  patch file:line status [DETAIL] | text\n".
std::string verdict_line(const LineVerdict& verdict, const std::string& detail);

// SUMMARY's counts as coverage.json keeps them.
results::CoverageCounts coverage_counts(const CoverageSummary& summary);
// VERDICTS as a coverage.json keeps them (results/coverage_record.h, whose
// to_json() writes it): one kernel's, not merged over cells.
results::CoverageRecord coverage_record(const std::vector<LineVerdict>& verdicts,
                                        const CoverageSummary& summary);

}  // namespace kseries::coverage
