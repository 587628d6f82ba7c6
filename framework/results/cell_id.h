#pragma once
// Which cell of a run a result belongs to, as a value: its kind (a stage's
// word and how its ids are formed), and for the kinds that have them the
// target and the test case. Made once where the cell is planned, written
// once (to_string: the "cell" word of gate.json, the JUnit test name) and
// read back once (parse), so no code builds "TARGET CASE" text by hand or
// splits it again.

#include <optional>
#include <string>
#include <string_view>

namespace kseries::results {

// What follows a kind's word in its cells' ids.
enum class CellShape {
  k_word,              // "apply"
  k_word_target,       // "per-patch TARGET"
  k_word_target_case,  // "per-patch-timing TARGET CASE"
  k_target_case,       // a session: "TARGET CASE [(VARIANT)]", no word
};

// A kind of cell: a gate stage's word and the shape of its ids. A stage
// declares its own in its own file and makes it readable with
// register_cell_kind (gate/stage.h); results/ keeps no list of stages.
struct CellKind {
  std::string_view word;  // "" for a session
  CellShape shape = CellShape::k_word;

  bool operator==(const CellKind&) const = default;
};

// KIND, made known to CellId::parse (every kind but a session's, which has
// no word, is registered once, at namespace scope in the file declaring
// it: `const results::CellKind k_x = results::register_cell_kind(...)`).
// Throws std::logic_error for an empty word, a session shape, or a word
// registered before with another shape.
CellKind register_cell_kind(CellKind kind);

// A matrix cell, or a boot's session: "TARGET CASE".
inline constexpr CellKind k_session_cell{"", CellShape::k_target_case};
// The cells whose facts results/facts.h names and the reports read (the
// per-patch table, KCIDB's builds, the coverage section): their stages
// (gate/apply_stage, checkpatch, per_patch, coverage_stage) use these.
inline constexpr CellKind k_apply_cell{"apply", CellShape::k_word};
inline constexpr CellKind k_checkpatch_cell{"checkpatch", CellShape::k_word};
inline constexpr CellKind k_per_patch_cell{"per-patch", CellShape::k_word_target};
inline constexpr CellKind k_coverage_cell{"coverage", CellShape::k_word};

struct CellId {
  CellKind kind = k_session_cell;
  std::string target{};     // "" for a kind of shape k_word
  std::string test_case{};  // "" but for a session and a k_word_target_case kind
  // A session run more than once in one run (`kseries boot --clock both`):
  // "wall" gives "pmem memmap-timing (wall)".
  std::string variant{};

  static CellId apply() { return {k_apply_cell}; }
  static CellId checkpatch() { return {k_checkpatch_cell}; }
  static CellId coverage() { return {k_coverage_cell}; }
  static CellId per_patch(std::string target) { return {k_per_patch_cell, std::move(target)}; }
  static CellId session(std::string target, std::string test_case, std::string variant = "") {
    return {k_session_cell, std::move(target), std::move(test_case), std::move(variant)};
  }

  bool is_session() const { return kind == k_session_cell; }
  std::string to_string() const;
  // A cell word as to_string writes it; nullopt for text that is none
  // (empty, a target without a case, a word no registered kind has with
  // what follows it).
  static std::optional<CellId> parse(std::string_view text);

  bool operator==(const CellId&) const = default;
};

}  // namespace kseries::results
