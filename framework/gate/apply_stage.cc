#include "gate/apply_stage.h"

#include <algorithm>

#include "core/error.h"
#include "gate/gate.h"
#include "gate/per_patch.h"
#include "oracle/sha256.h"
#include "results/facts.h"
#include "series/revision_identity.h"
#include "series/series_chain.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

namespace {

using results::CellResult;
using results::Outcome;

// The series' own patches for the reports: each file and its sha256. The
// messages of an mbox (or of anything that is not a regular file in a
// series directory: a FIFO reads once) are written out one per file (the
// form KCIDB's patchset takes), as checkpatch reads them; nothing is read
// from the source a second time.
results::SeriesRecord describe(const Series& series, const std::string& name,
                               const fs::path& run_dir) {
  results::SeriesRecord record{name, series.source.string(), {}, std::nullopt};
  const bool directory = fs::is_directory(series.source);
  for (std::size_t i = 0; i < series.patches.size(); ++i) {
    const auto& patch = series.patches[i];
    fs::path file = patch.file;
    std::string text;
    if (directory && fs::is_regular_file(file)) {
      text = read_file(file);
    } else {
      file = run_dir / "patches" / file_safe(name) / (std::to_string(i + 1) + ".patch");
      fs::create_directories(file.parent_path());
      text = "From: " + patch.author.name + " <" + patch.author.email + ">\nSubject: [PATCH " +
             std::to_string(i + 1) + "/" + std::to_string(series.patches.size()) + "] " +
             patch.subject.title + "\n\n" + patch.body + "\n---\n" + patch.diff;
      write_file(file, text);
    }
    record.patches.push_back({file.string(), patch.subject.title, oracle::sha256_hex(text)});
  }
  return record;
}

const char* apply_fact(git::PatchStatus status) {
  switch (status) {
    case git::PatchStatus::k_applied:
      return "applied";
    case git::PatchStatus::k_failed:
      return "failed";
    case git::PatchStatus::k_not_attempted:
      break;
  }
  return "not attempted";
}

class ApplyStage final : public Stage {
 public:
  results::CellKind kind() const override { return results::k_apply_cell; }
  std::string time_bucket() const override { return "apply"; }
  bool needed_by_the_rest() const override { return true; }

  std::vector<PlannedCell> plan(const ResolvedMatrix&) const override {
    return {{results::CellId::apply(), nullptr, nullptr, "series"}};
  }

  CellResult run(const PlannedCell& planned, SeriesInput& input) const override {
    if (input.load_error) {
      // Named as a loaded series would be (the runner's name for it): a
      // stable test identity, the path (which differs on every CI runner)
      // only as a property.
      return {input.name,
              planned.name(),
              Outcome::k_error,
              *input.load_error,
              *input.load_error,
              0,
              {{"series_dir", input.dir.string()}}};
    }
    const Series& series = input.series();
    git::ApplyRequest request;
    request.base = input.request.base;
    request.base_label = input.request.base_label;
    for (const auto& s : input.chain) {
      request.chain.push_back(s.get());
    }
    auto applied = git::apply_chain(input.services.store, request);
    CellResult cell{input.name, planned.name(), Outcome::k_pass, "", "", 0, {}};
    const std::size_t own = series.patches.size();
    for (std::size_t i = applied.outcomes.size() - std::min(own, applied.outcomes.size());
         i < applied.outcomes.size(); ++i) {
      const auto& outcome = applied.outcomes[i];
      const int patch = static_cast<int>(outcome.index) + 1;
      results::set_patch_fact(cell.properties, patch, results::PatchFact::k_apply,
                              apply_fact(outcome.status));
      if (outcome.status == git::PatchStatus::k_applied) {
        results::set_patch_fact(cell.properties, patch, results::PatchFact::k_commit,
                                git::to_hex(outcome.commit));
      }
    }
    if (!applied.complete || !applied.tip) {
      cell.status = Outcome::k_fail;
      for (const auto& outcome : applied.outcomes) {
        if (outcome.status == git::PatchStatus::k_failed) {
          cell.summary = outcome.label + " does not apply";
          cell.detail += outcome.label + " does not apply:\n" + outcome.failure + "\n";
        }
      }
      return cell;
    }
    cell.summary = std::to_string(own) + " patch(es) applied onto " + input.request.base_label;
    for (const auto& warning : applied.warnings) {  // base-commit, point release
      cell.summary += "; warning: " + warning;
    }
    cell.properties["tip"] = git::to_hex(*applied.tip);
    input.applied = std::move(applied);
    return cell;
  }
};

}  // namespace

void load_series(SeriesInput& input) {
  try {
    input.chain = load_series_chain(input.dir);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::k_interrupted) {
      throw;  // cut while reading it (a FIFO): the gate stops, as between series
    }
    input.load_error = e.what();
    return;
  }
  const Series& series = input.series();
  input.name = series.name;
  input.identity = revision_identity(series).label();
  input.revision = gated_revision(series);
  input.record = describe(series, input.name, input.request.run_dir);
}

const Stage& apply_stage() {
  static const ApplyStage stage;
  return stage;
}

}  // namespace kseries::gate
