#pragma once
// A finished (or interrupted) run read back from its directory, the only
// input of the HTML and KCIDB renderers: a gate's cell store (gate.json)
// with each cell's session results (cells/*/results.json), or a boot's
// results.json as one cell. Reading from disk, not from the running
// command, lets any later command (a merge of runs, a re-render) draw the
// same report.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/cell_id.h"
#include "results/coverage_record.h"
#include "results/facts.h"
#include "results/gate_record.h"
#include "results/session_record.h"

namespace kseries::report {

// A cell as gate.json has it (results/gate_record.h), with what the run
// directory holds beside it.
struct RunCell : results::CellResult {
  std::filesystem::path dir;  // its logs ("" when it has none)
  // Its results.json (results/session_record.h), read when the run is
  // loaded; nullopt when it booted nothing.
  std::optional<results::SessionRecord> session;
  bool booted = false;  // results.json, or a console log, in its directory
  // The coverage stage's coverage.json (results/coverage_record.h), or
  // nullopt.
  std::optional<results::CoverageRecord> coverage;
  // "pmem memmap-timing" -> target "pmem", case "memmap-timing"; stages
  // ("apply", "checkpatch", "per-patch pmem") have no case.
  std::string target() const;
  std::string test_case() const;
  std::string property(const std::string& key) const;  // "" when absent
  // The cell's typed facts (results/facts.h), "" when absent.
  std::string patch_fact(int patch, results::PatchFact fact) const;
  std::string kernel_fact(const std::string& role, results::KernelFact fact) const;
  // The session's kernel the cell is about (its series, else the candidate)
  // and the one it was compared with (base or reference; "" when alone).
  // Sessions written before kernels had roles: the kernel that is not the
  // subject.
  std::string subject_kernel() const;
  std::string baseline_kernel() const;
  // The session's samples of KERNEL for (SETUP, METRIC); null when the
  // session has none.
  const results::MetricRecord* samples(const std::string& kernel, const std::string& setup,
                                       const std::string& metric) const;
};

struct RunRecord {
  std::string kind;  // "gate" or "boot"
  std::filesystem::path dir;
  std::string started;  // ISO 8601 UTC, "" when unknown
  std::string base_commit;
  std::string base_label;
  // Each series with its patches and verdict (none: not judged yet).
  std::vector<results::SeriesRecord> series;
  std::vector<RunCell> cells;
  bool finished = false;  // the command reached its end (not cut off)
  // The run's outcome: the gate's (gate/judge.h), a boot's pass or fail.
  results::Outcome outcome = results::Outcome::k_error;
  std::vector<std::pair<std::string, double>> time;  // stage -> seconds
  std::string name() const { return dir.filename().string(); }
  const results::SeriesRecord* find_series(const std::string& name) const;
  // SERIES' first cell of KIND ("apply", "per-patch TARGET"), or null.
  const RunCell* find_cell(const std::string& series, results::CellKind kind) const;
  // SERIES' cell CELL ("pmem memmap-timing"), or null.
  const RunCell* find_cell(const std::string& series, const std::string& cell) const;
};

// Reads RUN_DIR: gate.json when present, else results.json (a boot), and
// each cell's results.json. Throws Error(k_usage) naming the file when
// neither can be read, or one holds a value of the wrong type.
RunRecord load_run(const std::filesystem::path& run_dir);

}  // namespace kseries::report
