#include "report/run_record.h"

#include "core/error.h"
#include "results/gate_record.h"

namespace kseries::report {

namespace fs = std::filesystem;

namespace {

// A cell's results.json, when it booted (a skipped or unbuilt cell has
// none); a value of the wrong type there is named with its cell.
std::optional<results::SessionRecord> session_of(const RunCell& cell) {
  if (cell.dir.empty()) {
    return std::nullopt;
  }
  return results::read_session_file(cell.dir / "results.json",
                                    " (cell " + cell.series + ": " + cell.cell + ")");
}

// A store written before cells kept their results.json: a console log says
// the kernel was built and booted.
bool booted_in(const fs::path& dir) {
  std::error_code error;
  if (dir.empty() || !fs::is_directory(dir, error)) {
    return false;
  }
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().string().ends_with(".console.log")) {
      return true;
    }
  }
  return false;
}

// gate.json through its one reader (results/gate_record.h), each cell with
// its session's results.json when it booted.
RunRecord load_gate(const fs::path& run_dir) {
  const auto stored = results::read_gate_json(run_dir / "gate.json");
  RunRecord run;
  run.kind = "gate";
  run.dir = run_dir;
  run.started = stored.started;
  run.base_commit = stored.base_commit;
  run.base_label = stored.base_label;
  run.series = stored.series;
  for (const auto& c : stored.cells) {
    RunCell cell;
    static_cast<results::CellResult&>(cell) = c;
    if (const auto dir = cell.property("run_dir"); !dir.empty()) {
      cell.dir = dir;
    }
    cell.session = session_of(cell);
    if (const auto id = cell.id(); id && id->kind == results::k_coverage_cell) {
      cell.coverage =
          results::read_coverage_file(cell.dir.empty() ? cell.dir : cell.dir / "coverage.json",
                                      " (cell " + cell.series + ": " + cell.cell + ")");
    }
    cell.booted = cell.session || booted_in(cell.dir);
    run.cells.push_back(std::move(cell));
  }
  // A store written before it kept its series (or cut off before the first
  // was described): the series its cells name, in their order.
  for (const auto& cell : run.cells) {
    if (!run.find_series(cell.series)) {
      run.series.push_back({cell.series, "", {}, std::nullopt});
    }
  }
  run.finished = stored.finished;
  run.outcome = stored.outcome;  // error when it has no end
  run.time = stored.time;
  return run;
}

// One session of `kseries boot` as a cell, its candidate (else its first
// kernel) as the series.
RunCell boot_cell(results::SessionRecord session, const fs::path& dir, const std::string& variant,
                  RunRecord& run) {
  RunCell cell;
  const auto or_unknown = [](const std::string& text) { return text.empty() ? "?" : text; };
  cell.cell =
      results::CellId::session(or_unknown(session.target), or_unknown(session.test_case), variant)
          .to_string();
  cell.status = session.failed ? results::Outcome::k_fail : results::Outcome::k_pass;
  cell.dir = dir;
  cell.booted = true;
  for (const auto& [name, kernel] : session.kernels) {
    if (kernel.role == "base" && run.base_commit.empty()) {
      run.base_commit = kernel.commit;
      run.base_label = "base";
    }
    if (kernel.role == "candidate" || cell.series.empty()) {
      cell.series = name;
    }
  }
  for (const auto& boot : session.boots) {
    cell.seconds += boot.seconds;
  }
  cell.summary =
      session.failed ? "failed (see the boots, oracles and comparisons below)" : "passed";
  cell.session = std::move(session);
  return cell;
}

RunRecord load_boot(const fs::path& run_dir) {
  RunRecord run;
  run.kind = "boot";
  run.dir = run_dir;
  run.finished = true;
  // --clock both: one session per clock, each in its own directory.
  for (auto& [clock, session] : results::read_boot_results(run_dir / "results.json")) {
    run.cells.push_back(
        boot_cell(std::move(session), clock.empty() ? run_dir : run_dir / clock, clock, run));
  }
  std::vector<results::Outcome> outcomes;
  for (const auto& cell : run.cells) {
    outcomes.push_back(cell.status);
  }
  run.outcome = results::fold(outcomes);
  for (const auto& cell : run.cells) {
    if (!run.find_series(cell.series)) {
      results::SeriesVerdict verdict;
      verdict.series = cell.series;
      verdict.outcome = run.outcome;
      run.series.push_back({cell.series, "", {}, verdict});
    }
  }
  return run;
}

}  // namespace

std::string RunCell::target() const {
  const auto parsed = id();
  return parsed && (parsed->kind == results::k_per_patch_cell || parsed->is_session())
             ? parsed->target
             : "";
}

std::string RunCell::test_case() const {
  const auto parsed = id();
  return parsed && parsed->is_session() ? parsed->test_case : "";
}

std::string RunCell::property(const std::string& key) const {
  const auto it = properties.find(key);
  return it == properties.end() ? "" : it->second;
}

std::string RunCell::patch_fact(int patch, results::PatchFact fact) const {
  return results::patch_fact(properties, patch, fact);
}

std::string RunCell::kernel_fact(const std::string& role, results::KernelFact fact) const {
  return results::kernel_fact(properties, role, fact);
}

std::string RunCell::subject_kernel() const {
  if (!session) {
    return "";
  }
  if (session->kernels.contains(series)) {
    return series;
  }
  std::string subject;
  for (const auto& [name, kernel] : session->kernels) {
    const std::string& role = kernel.role;
    if (role == "candidate" || (subject.empty() && role != "base" && role != "reference")) {
      subject = name;
    }
  }
  return subject;
}

std::string RunCell::baseline_kernel() const {
  if (!session) {
    return "";
  }
  const auto& kernels = session->kernels;
  const std::string subject = subject_kernel();
  std::string other;
  for (const auto& [name, kernel] : kernels) {
    const std::string& role = kernel.role;
    if (name != subject && (role == "base" || role == "reference")) {
      return name;
    }
    if (name != subject && role.empty()) {
      other = name;
    }
  }
  return kernels.size() == 2 ? other : "";
}

const results::MetricRecord* RunCell::samples(const std::string& kernel, const std::string& setup,
                                              const std::string& metric) const {
  if (!session) {
    return nullptr;
  }
  const auto k = session->kernels.find(kernel);
  if (k == session->kernels.end()) {
    return nullptr;
  }
  const auto s = k->second.setups.find(setup);
  if (s == k->second.setups.end()) {
    return nullptr;
  }
  const auto m = s->second.find(metric);
  return m == s->second.end() ? nullptr : &m->second;
}

const results::SeriesRecord* RunRecord::find_series(const std::string& name) const {
  for (const auto& s : series) {
    if (s.series == name) {
      return &s;
    }
  }
  return nullptr;
}

const RunCell* RunRecord::find_cell(const std::string& series, results::CellKind kind) const {
  for (const auto& c : cells) {
    if (const auto id = c.id(); c.series == series && id && id->kind == kind) {
      return &c;
    }
  }
  return nullptr;
}

const RunCell* RunRecord::find_cell(const std::string& series, const std::string& cell) const {
  for (const auto& c : cells) {
    if (c.series == series && c.cell == cell) {
      return &c;
    }
  }
  return nullptr;
}

RunRecord load_run(const fs::path& run_dir) {
  if (fs::is_regular_file(run_dir / "gate.json")) {
    return load_gate(run_dir);
  }
  if (fs::is_regular_file(run_dir / "results.json")) {
    return load_boot(run_dir);
  }
  throw usage_error(run_dir.string() +
                    ": neither gate.json nor results.json (not a gate or boot run)");
}

}  // namespace kseries::report
