#pragma once
// The coverage stage's coverage.json (coverage/revision_coverage.h writes
// it) as the renderers read it: the revision's summary, one entry per
// coverage cell, and each changed line with the cells that ran it and the
// targets that compiled it. Read once, when the run is loaded.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "results/json_fields.h"

namespace kseries::results {

// Changed lines by what became of them.
struct CoverageCounts {
  int changed = 0;
  int executed = 0;
  int compiled_not_run = 0;
  int never_compiled = 0;
  bool operator==(const CoverageCounts&) const = default;
};

struct CoverageCellRecord {
  std::string cell;                   // "toycov demo"
  std::optional<std::string> target;  // its build's; nullopt in a file that lacks it
  std::string line;                   // its one line for people
  int cover_files = 0;                // 0: executed not known
  CoverageCounts counts;
  bool operator==(const CoverageCellRecord&) const = default;
};

struct CoverageLineRecord {
  int patch = 0;  // 1-based
  std::string file;
  int line = 0;
  std::string status;                    // executed, compiled, never-compiled, no-code, macro
  std::vector<std::string> compiled_in;  // targets
  std::vector<std::string> executed_in;  // cells
  std::optional<std::string> reason;     // why it was never compiled (its key)
  std::string note;                      // no-code, macro
  std::string text;
  bool operator==(const CoverageLineRecord&) const = default;
};

struct CoverageRecord {
  std::optional<std::string> summary_line;  // nullopt: the file has none
  CoverageCounts summary;
  std::vector<CoverageCellRecord> cells;
  std::vector<CoverageLineRecord> lines;
  bool operator==(const CoverageRecord&) const = default;
};

// JSON read back as json_fields.h reads: absent or null is the default, a
// value of the wrong type is Error(k_usage) naming where; a changed line
// that is not an object, and a name in a list that is not text, are left
// out (older renderers skipped them).
CoverageRecord coverage_record_from(const nlohmann::json& json);

// FILE, a coverage.json: nullopt when there is none, or it is larger than
// 64 MiB, not JSON or not an object; Error(k_usage) "FILE LABEL: a value of
// the wrong type: ..." when a value is of the wrong type.
std::optional<CoverageRecord> read_coverage_file(const std::filesystem::path& file,
                                                 const std::string& label = "");

}  // namespace kseries::results
