#pragma once
// Several revisions of one series in one gate (v6 and v10): per pair of
// consecutive revisions, which patches are unchanged, changed, new or
// dropped (a range-diff summary, as `b4 diff` shows it) and how each cell's
// status moved (pass -> fail ...). Revisions of one series: the same b4
// `change-id:`, else `<series>/vN` directories with the same `<series>`, else
// mboxes with the same cover letter title (series/revision_identity.h);
// consecutive by revision number.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "report/revision_timing.h"
#include "results/gate_record.h"
#include "series/series.h"

namespace kseries::gate {

struct RevisionPatch {
  std::string title;     // the subject without its [PATCH ...] prefix
  std::string patch_id;  // stable patch-id; empty when the diff did not parse
};

struct GatedRevision {
  std::string series;  // the cells' series name: "zone-device-memmap/v6"
  std::string family;  // shared by the revisions of one series: "zone-device-memmap"
  int revision = 0;
  std::vector<RevisionPatch> patches;  // in apply order
};

// A loaded series as the comparison sees it: its family (`<series>` of a
// `<series>/vN` directory, "title: <cover title>" of an mbox, the name of
// any other directory: a known-bad revision is compared with nothing) and
// each patch's subject and stable patch-id (empty when libgit2 cannot parse
// the diff: never "unchanged").
GatedRevision gated_revision(const Series& series);

// GatedRevisions as JSON and back (a sharded gate hands them to the merge,
// which has no series checkout); Error(k_usage) on malformed JSON.
nlohmann::json gated_revisions_json(const std::vector<GatedRevision>& revisions);
std::vector<GatedRevision> gated_revisions_from_json(const nlohmann::json& json);

enum class PatchChange { k_unchanged, k_changed, k_new, k_dropped };
std::string patch_change_name(PatchChange change);  // "unchanged", "changed", "new", "dropped"

struct PatchPairing {
  PatchChange change = PatchChange::k_new;
  std::optional<std::size_t> from;  // 1-based position in the older revision
  std::optional<std::size_t> to;    // 1-based position in the newer one
  std::string title;                // the newer title, else the older
  std::string from_title;           // set when the subject was reworded
};

struct CellTransition {
  std::string cell;
  std::optional<results::Outcome> from;  // nullopt: the cell did not run in that revision
  std::optional<results::Outcome> to;
  bool changed() const { return from != to; }
};

// The coverage stage's figures of one revision (its cell's properties).
struct CoverageFigures {
  std::size_t executed = 0;
  std::size_t changed = 0;  // counted changed lines
};

struct RevisionComparison {
  std::string family;
  std::string from;  // series names
  std::string to;
  std::size_t from_patches = 0;
  std::size_t to_patches = 0;
  // In the newer order; a dropped patch comes before the first one paired
  // with a later patch of the older revision, else at the end.
  std::vector<PatchPairing> patches;
  std::vector<CellTransition> cells;  // in the newer revision's cell order
  // The newer revision's timing against the older one's, where both ran a
  // timing cell (filled by the gate from the cells' samples).
  std::vector<report::RevisionTiming> timings;
  // Changed lines executed, where both revisions ran the coverage stage.
  std::optional<CoverageFigures> from_coverage, to_coverage;
  std::size_t count(PatchChange change) const;
};

// Pairs the patches of two revisions: the same stable patch-id is
// unchanged; else the same subject, or a subject sharing at least two thirds
// of its words (a renamed helper), is changed; the rest are new or dropped.
std::vector<PatchPairing> pair_patches(const std::vector<RevisionPatch>& from,
                                       const std::vector<RevisionPatch>& to);

// One comparison per consecutive pair of revisions of each series with two
// or more revisions among `revisions`; cells from `cells`.
std::vector<RevisionComparison> compare_revisions(const std::vector<GatedRevision>& revisions,
                                                  const std::vector<results::CellResult>& cells);

// The text report's section, and gate.json's "revisions" array.
std::string render_comparison(const RevisionComparison& comparison);
nlohmann::json comparisons_json(const std::vector<RevisionComparison>& comparisons);

}  // namespace kseries::gate
