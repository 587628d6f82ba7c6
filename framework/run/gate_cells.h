#pragma once
// The gate's results, one per cell (series × stage/target/case), kept in a
// store persisted in the run directory after every cell (gate.json), so an
// interrupted gate leaves its partial report and `--resume` reuses what
// finished. Beside the cells the store keeps what the renderers (text, HTML,
// KCIDB) need and cannot find in the run directory: the base, each series'
// patches and verdict, and how the gate ended. The verdict of each series
// comes from its cells and its expectations.

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run/expectations.h"

namespace kseries::run {

enum class CellStatus { k_pass, k_fail, k_skip, k_error };
std::string cell_status_name(CellStatus status);  // "pass", "fail", "skip", "error"

struct CellResult {
  std::string series;  // "zone-device-memmap/v6"
  std::string cell;    // "apply", "checkpatch", "per-patch pmem", "pmem memmap-types"
  CellStatus status = CellStatus::k_error;
  std::string summary;  // one line
  std::string detail;   // every failure line, the evidence
  double seconds = 0;
  // Facts for the renderers, e.g. "run_dir", "tip", "patch.3.build",
  // "build.candidate.seconds".
  std::map<std::string, std::string> properties;
};

struct SeriesVerdict {
  std::string series;
  bool ok = false;
  bool known_bad = false;          // it has expectations
  std::vector<std::string> lines;  // why, one line each
  bool interrupted = false;        // the gate stopped inside this series: not judged
  // Findings that do not fail it, first on its verdict line: "slower than
  // demo/v1: toy demo fsdax-dev memmap_init_vns +16.1 % [...]".
  std::vector<std::string> warnings{};
  // The series' identity (series/revision_identity.h): "change-id X v2".
  std::string identity{};
};

// A patch as the reports need it: the file it came from (a format-patch
// file; for an mbox, the message written out under the run directory), its
// subject, and the sha256 of that file's bytes (KCIDB's patchset hash is
// built from these).
struct PatchRecord {
  std::string file;
  std::string subject;
  std::string sha256;
};

// What the store keeps of a series besides its cells: where it came from,
// its own patches (not its prerequisites'), and its verdict once judged.
struct SeriesRecord {
  std::string series;
  std::string source;
  std::vector<PatchRecord> patches;
  std::optional<SeriesVerdict> verdict;
};

// A gate.json read back: the base, the series records (with their
// verdicts) and every cell (errors too). Error(k_usage) naming the file
// when it is not a cell store.
struct StoredGate {
  std::string base_commit;
  std::string base_label;
  std::vector<SeriesRecord> series;
  std::vector<CellResult> cells;
};
StoredGate load_gate_store(const std::filesystem::path& file);
std::vector<CellResult> load_cells(const std::filesystem::path& file);  // its cells

class CellStore {
 public:
  explicit CellStore(std::filesystem::path file);
  // Cells of an earlier run (its gate.json) that may be reused: pass, fail, skip.
  void load_previous(const std::filesystem::path& file);
  const CellResult* previous(const std::string& series, const std::string& cell) const;
  void record(CellResult result);  // and save
  // A section of gate.json beside "cells" ("revisions"), saved at once.
  void set_section(const std::string& key, nlohmann::json value);
  const std::vector<CellResult>& cells() const { return m_cells; }
  std::size_t reused() const { return m_reused; }
  void count_reused() { ++m_reused; }

  // The run's facts, each saved at once.
  void set_base(const std::string& commit, const std::string& label);
  void describe(SeriesRecord series);        // adds or replaces it
  void judge(const SeriesVerdict& verdict);  // attaches it to its series
  void finish(bool ok, bool interrupted, const std::vector<std::pair<std::string, double>>& time);

 private:
  void save() const;

  std::filesystem::path m_file;
  std::vector<CellResult> m_cells;
  nlohmann::json m_sections = nlohmann::json::object();
  std::vector<CellResult> m_previous;
  std::size_t m_reused = 0;
  std::string m_started;
  nlohmann::json m_base;
  std::vector<SeriesRecord> m_series;
  nlohmann::json m_end;
};

// A good series (no expectations) is ok when no cell failed or erred; a
// known-bad one when every expected cell failed with its text and nothing
// else failed or erred. PLANNED, when given, are the cells the matrix has
// ("pmem memmap-types"): an expectation for a cell outside it is noted and
// not checked, but a known-bad revision none of whose expectations is in
// the matrix is not ok (nothing in this gate could catch it).
SeriesVerdict judge_series(const std::string& series, const std::vector<CellResult>& cells,
                           const std::optional<Expectations>& expectations,
                           const std::vector<std::string>* planned = nullptr);

}  // namespace kseries::run
