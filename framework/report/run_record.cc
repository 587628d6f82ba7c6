#include "report/run_record.h"

#include "core/error.h"
#include "core/json_text.h"
#include "results/gate_record.h"
#include "sys/files.h"

namespace kseries::report {

namespace fs = std::filesystem;

namespace {

nlohmann::json parse(const fs::path& file) {
  auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.is_object()) {
    throw usage_error(file.string() + ": not a JSON object");
  }
  return json;
}

// A cell's results.json, when it booted (a skipped or unbuilt cell has none).
nlohmann::json session_of(const fs::path& dir) {
  if (dir.empty() || !fs::is_regular_file(dir / "results.json")) {
    return nullptr;
  }
  auto json = parse_json_text(read_file(dir / "results.json"));
  return json.is_discarded() ? nlohmann::json(nullptr) : json;
}

// The coverage stage's coverage.json in DIR, at most 64 MiB; null when
// there is none or it is not a JSON object.
nlohmann::json coverage_of(const fs::path& dir) {
  std::error_code ec;
  if (dir.empty() || !fs::is_regular_file(dir / "coverage.json", ec)) {
    return nullptr;
  }
  bool truncated = false;
  const std::string text = read_file_head(dir / "coverage.json", std::size_t{64} << 20, truncated);
  if (truncated) {
    return nullptr;
  }
  auto json = parse_json_text(text);
  return json.is_discarded() || !json.is_object() ? nlohmann::json(nullptr) : json;
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
    cell.session = session_of(cell.dir);
    if (const auto id = cell.id(); id && id->kind == results::k_coverage_cell) {
      cell.coverage = coverage_of(cell.dir);
    }
    cell.booted = !cell.session.is_null() || booted_in(cell.dir);
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
RunCell boot_cell(const nlohmann::json& session, const fs::path& dir, const std::string& variant,
                  RunRecord& run) {
  RunCell cell;
  cell.cell =
      results::CellId::session(session.value("target", "?"), session.value("case", "?"), variant)
          .to_string();
  const bool failed = session.value("failed", false);
  cell.status = failed ? results::Outcome::k_fail : results::Outcome::k_pass;
  cell.dir = dir;
  cell.session = session;
  cell.booted = true;
  const auto kernels = session.value("kernels", nlohmann::json::object());
  for (const auto& [name, kernel] : kernels.items()) {
    const std::string role = kernel.value("role", "");
    if (role == "base" && run.base_commit.empty()) {
      run.base_commit = kernel.value("commit", "");
      run.base_label = "base";
    }
    if (role == "candidate" || cell.series.empty()) {
      cell.series = name;
    }
  }
  for (const auto& boot : session.value("boots", nlohmann::json::array())) {
    cell.seconds += boot.value("seconds", 0.0);
  }
  cell.summary = failed ? "failed (see the boots, oracles and comparisons below)" : "passed";
  return cell;
}

RunRecord load_boot(const fs::path& run_dir, const nlohmann::json& json) {
  RunRecord run;
  run.kind = "boot";
  run.dir = run_dir;
  run.finished = true;
  if (json.contains("case")) {
    run.cells.push_back(boot_cell(json, run_dir, "", run));
  } else {
    // --clock both: one session per clock, each in its own directory.
    for (const auto& [clock, session] : json.items()) {
      if (session.is_object()) {
        run.cells.push_back(boot_cell(session, run_dir / clock, clock, run));
      }
    }
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
  const auto kernels = session.value("kernels", nlohmann::json::object());
  if (kernels.contains(series)) {
    return series;
  }
  std::string subject;
  for (const auto& [name, kernel] : kernels.items()) {
    const std::string role = kernel.value("role", "");
    if (role == "candidate" || (subject.empty() && role != "base" && role != "reference")) {
      subject = name;
    }
  }
  return subject;
}

std::string RunCell::baseline_kernel() const {
  const auto kernels = session.value("kernels", nlohmann::json::object());
  const std::string subject = subject_kernel();
  std::string other;
  for (const auto& [name, kernel] : kernels.items()) {
    const std::string role = kernel.value("role", "");
    if (name != subject && (role == "base" || role == "reference")) {
      return name;
    }
    if (name != subject && role.empty()) {
      other = name;
    }
  }
  return kernels.size() == 2 ? other : "";
}

const nlohmann::json* RunCell::samples(const std::string& kernel, const std::string& setup,
                                       const std::string& metric) const {
  const nlohmann::json* at = &session;
  for (const std::string& key :
       {std::string("kernels"), kernel, std::string("setups"), setup, metric}) {
    if (!at->is_object() || !at->contains(key)) {
      return nullptr;
    }
    at = &(*at)[key];
  }
  return at;
}

double number_or(const nlohmann::json& object, const std::string& key, double fallback) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) {
    return fallback;
  }
  return object[key].get<double>();
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
  // A value of the wrong type (a number where a string goes) is the file's
  // fault: named, exit 2, not "internal error" without the file.
  const auto load = [&](const fs::path& file, auto loader) {
    try {
      return loader(run_dir, parse(file));
    } catch (const nlohmann::json::exception& e) {
      throw usage_error(file.string() + ": " + e.what());
    }
  };
  if (fs::is_regular_file(run_dir / "gate.json")) {
    return load_gate(run_dir);
  }
  if (fs::is_regular_file(run_dir / "results.json")) {
    return load(run_dir / "results.json", load_boot);
  }
  throw usage_error(run_dir.string() +
                    ": neither gate.json nor results.json (not a gate or boot run)");
}

}  // namespace kseries::report
