#pragma once
// A coverage.json: the coverage stage's (the revision's summary, one entry
// per coverage cell, and each changed line with the cells that ran it and
// the targets that compiled it) and `kseries coverage --json`'s (one
// kernel: no cells). coverage/ fills the record and writes it with
// to_json(); the renderers read it back, once, when the run is loaded.
// Writer and reader are both here, so each key is spelled once.

#include <cstdint>
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
  std::uint64_t addresses = 0;  // distinct executed addresses in its cover files
  bool operator==(const CoverageCellRecord&) const = default;
};

// Why a line was never compiled (coverage/reasons.h).
struct CoverageReasonRecord {
  std::string key;                   // "KASAN: set by target kasan"
  std::vector<std::string> details;  // the condition, its symbols, the chain
  bool impossible = false;           // no target of any kind could compile it here
  bool operator==(const CoverageReasonRecord&) const = default;
};

struct CoverageLineRecord {
  int patch = 0;  // 1-based
  std::string file;
  int line = 0;
  std::string status;                          // executed, compiled, never-compiled, no-code, macro
  std::vector<std::string> compiled_in;        // targets (a merged file's)
  std::vector<std::string> executed_in;        // cells (a merged file's)
  std::optional<CoverageReasonRecord> reason;  // why it was never compiled
  std::string note;                            // no-code, macro
  std::string text;
  bool modifies = false;         // its change block also removes lines
  std::uint64_t units = 0;       // objects whose code it is
  std::uint64_t executions = 0;  // the most any of its instructions ran
  bool operator==(const CoverageLineRecord&) const = default;
};

struct CoverageRecord {
  std::string series;  // "zone-device-memmap/v10" (written when not empty)
  std::string tree;    // the commit the kernel was built from, hex
  // `kseries coverage`'s one kernel: after how many patches, which vmlinux
  // (written when set).
  std::optional<int> patches;
  std::optional<std::string> vmlinux;
  std::optional<std::string> summary_line;  // nullopt: the file has none
  CoverageCounts summary;
  int no_code = 0, macro = 0;  // changed lines not counted
  bool ran = false;            // executed addresses were given
  // The gate's merge over coverage cells: `cells` and each line's
  // compiled_in/executed_in are written (a file with "cells" reads so).
  bool merged = false;
  std::vector<CoverageCellRecord> cells;
  std::vector<CoverageLineRecord> lines;
  bool operator==(const CoverageRecord&) const = default;
};

// RECORD as its file keeps it. coverage_record_from(to_json(r)) == r.
nlohmann::json to_json(const CoverageRecord& record);

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
