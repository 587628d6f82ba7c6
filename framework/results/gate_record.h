#pragma once
// gate.json: the gate's results, one per cell (series x stage/target/case),
// kept in a store persisted in the run directory after every cell, so an
// interrupted gate leaves its partial report and `--resume` reuses what
// finished. Beside the cells the store keeps what the renderers (text,
// HTML, KCIDB) need and cannot find in the run directory: the base, each
// series' patches and verdict, and how the gate ended. This module is the
// only writer and the only reader of that file (the gate, merge, report).

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/cell_id.h"
#include "results/outcome.h"

namespace kseries::results {

struct CellResult {
  std::string series;  // "zone-device-memmap/v6"
  // CellId::to_string(): "apply", "checkpatch", "per-patch pmem",
  // "pmem memmap-types"; id() reads it back.
  std::string cell;
  // What the stage found: pass, fail, skip or error (an expectation is the
  // verdict's, SeriesVerdict::outcome_of).
  Outcome status = Outcome::k_error;
  std::string summary;  // one line
  std::string detail;   // every failure line, the evidence
  double seconds = 0;
  // Facts for the renderers, e.g. "run_dir", "tip", the per-patch facts
  // (facts.h), "build.candidate.seconds".
  std::map<std::string, std::string> properties;

  // The cell as a value; nullopt for a cell word no stage writes.
  std::optional<CellId> id() const { return CellId::parse(cell); }
};

// What the verdict made of one cell: its stage's outcome with the series'
// expectation applied (fail -> xfail, pass -> xpass).
struct CellVerdict {
  std::string cell;
  Outcome outcome = Outcome::k_error;
};

// Why a series' verdict is what it is, one reason a line. Typed, so no
// reader parses the text back: the JUnit report fails a testcase for each
// unmet expectation by its kind.
enum class ReasonKind {
  k_failed,             // a cell failed or erred (no expectation named it)
  k_unmet_expectation,  // an expectation that does not hold: the series fails
  k_expectation_holds,  // an expected failure, with its text
  k_not_in_plan,        // an expectation for a cell this gate does not have: not checked
  k_note,               // anything else (a verdict read from an older gate.json)
};

struct Reason {
  ReasonKind kind = ReasonKind::k_note;
  std::string cell;  // the cell it is about ("" for the series as a whole)
  std::string text;  // what about it, for people

  // The cell and the text, as one sentence: "pmem x was expected to fail
  // with 'y' but is pass".
  std::string sentence() const;
};

// The verdict's line for people: "FAILED pmem x: ...", "ERROR pmem x was
// expected to fail ...", "expected failure holds: pmem x: ...", "not in
// this matrix: pmem x (...)".
std::string reason_line(const Reason& reason);

struct SeriesVerdict {
  std::string series;
  // Every cell as judged and every unmet expectation folded
  // (results::fold): pass, xfail (EXPECTED: a known-bad revision caught),
  // fail, xpass, error, or interrupted (the gate stopped inside it: not
  // judged); skip when it has no cell.
  Outcome outcome = Outcome::k_error;
  bool known_bad = false;  // it has expectations
  std::vector<Reason> reasons{};
  // Findings that do not fail it, first on its verdict line: "slower than
  // demo/v1: toy demo fsdax-dev memmap_init_vns +16.1 % [...]".
  std::vector<std::string> warnings{};
  // The series' identity (series/revision_identity.h): "change-id X v2".
  std::string identity{};
  // Each of its cells as judged; what the reports show (a verdict read
  // from a gate.json written before verdicts kept them has none).
  std::vector<CellVerdict> outcomes{};

  bool ok() const { return !is_failure(outcome); }
  // The judged outcome of CELL, else FALLBACK (its stage's).
  Outcome outcome_of(const std::string& cell, Outcome fallback) const;
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
// verdicts), every cell (errors too), and how the gate ended.
struct StoredGate {
  std::string started;  // ISO 8601 UTC, "" when unknown
  std::string base_commit;
  std::string base_label;
  std::vector<SeriesRecord> series;
  std::vector<CellResult> cells;
  bool finished = false;  // it has its "end"
  // The gate's outcome (pass, fail, error, interrupted); error when unknown.
  Outcome outcome = Outcome::k_error;
  std::vector<std::pair<std::string, double>> time;  // stage -> seconds
};
// Error(k_usage) naming the file when it is not a cell store (no "cells"
// array, a value of the wrong type).
StoredGate load_gate_store(const std::filesystem::path& file);
std::vector<CellResult> load_cells(const std::filesystem::path& file);  // its cells
// As load_gate_store for a gate.json given to a renderer: a store without
// "cells" has none. Error(k_usage) naming the file when it is not JSON.
StoredGate read_gate_json(const std::filesystem::path& file);

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
  // The gate's end: its outcome (gate/judge.h) and where the time went.
  void finish(Outcome outcome, const std::vector<std::pair<std::string, double>>& time);

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

}  // namespace kseries::results
