#pragma once
// Which cell of a run a result belongs to, as a value: the stage, and for
// the stages that have them the target and the test case. Made once where
// the cell is planned, written once (to_string: the "cell" word of
// gate.json, the JUnit test name) and read back once (parse), so no code
// builds "TARGET CASE" text by hand or splits it again.

#include <optional>
#include <string>
#include <string_view>

namespace kseries::results {

// A new stage adds its value here and its word to cell_id.cc's table.
enum class Stage {
  k_apply,                // "apply"
  k_checkpatch,           // "checkpatch"
  k_per_patch,            // "per-patch TARGET"
  k_per_patch_timing,     // "per-patch-timing TARGET CASE"
  k_revision_regression,  // "revision-regression"
  k_session,              // "TARGET CASE" (a matrix cell, or a boot's session)
  k_coverage,             // "coverage" (the changed lines the coverage cells ran)
};

struct CellId {
  Stage stage = Stage::k_session;
  std::string target{};     // "" for apply, checkpatch, revision-regression
  std::string test_case{};  // "" but for per-patch-timing and session
  // A session run more than once in one run (`kseries boot --clock both`):
  // "wall" gives "pmem memmap-timing (wall)".
  std::string variant{};

  static CellId apply() { return {Stage::k_apply}; }
  static CellId checkpatch() { return {Stage::k_checkpatch}; }
  static CellId revision_regression() { return {Stage::k_revision_regression}; }
  static CellId coverage() { return {Stage::k_coverage}; }
  static CellId per_patch(std::string target) { return {Stage::k_per_patch, std::move(target)}; }
  static CellId per_patch_timing(std::string target, std::string test_case) {
    return {Stage::k_per_patch_timing, std::move(target), std::move(test_case)};
  }
  static CellId session(std::string target, std::string test_case, std::string variant = "") {
    return {Stage::k_session, std::move(target), std::move(test_case), std::move(variant)};
  }

  std::string to_string() const;
  // A cell word as to_string writes it; nullopt for text that is none
  // (empty, or a target without a case).
  static std::optional<CellId> parse(std::string_view text);

  bool operator==(const CellId&) const = default;
};

}  // namespace kseries::results
