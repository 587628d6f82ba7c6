#include "results/gate_record.h"

#include "core/error.h"
#include "core/json_text.h"
#include "sys/files.h"
#include "sys/utc_time.h"

namespace kseries::results {

namespace fs = std::filesystem;

namespace {

// "2026-12-02T15:04:05Z": the store's times.
std::string utc_now() { return utc_time_now("%Y-%m-%dT%H:%M:%SZ"); }

nlohmann::json to_json(const CellResult& c) {
  return {{"series", c.series},        {"cell", c.cell},     {"status", outcome_name(c.status)},
          {"summary", c.summary},      {"detail", c.detail}, {"seconds", c.seconds},
          {"properties", c.properties}};
}

constexpr std::pair<ReasonKind, std::string_view> k_reason_kinds[] = {
    {ReasonKind::k_failed, "failed"},
    {ReasonKind::k_unmet_expectation, "unmet-expectation"},
    {ReasonKind::k_expectation_holds, "expectation-holds"},
    {ReasonKind::k_not_in_plan, "not-in-plan"},
    {ReasonKind::k_note, "note"},
};

std::string reason_kind_name(ReasonKind kind) {
  for (const auto& [value, name] : k_reason_kinds) {
    if (value == kind) {
      return std::string(name);
    }
  }
  return "note";
}

ReasonKind parse_reason_kind(const std::string& name) {
  for (const auto& [value, word] : k_reason_kinds) {
    if (word == name) {
      return value;
    }
  }
  return ReasonKind::k_note;
}

nlohmann::json to_json(const SeriesRecord& s) {
  nlohmann::json patches = nlohmann::json::array();
  for (const auto& p : s.patches) {
    patches.push_back({{"file", p.file}, {"subject", p.subject}, {"sha256", p.sha256}});
  }
  nlohmann::json json = {{"series", s.series}, {"source", s.source}, {"patches", patches}};
  if (s.verdict) {
    const SeriesVerdict& v = *s.verdict;
    nlohmann::json reasons = nlohmann::json::array();
    std::vector<std::string> lines;  // for people (and readers of older files)
    for (const auto& r : v.reasons) {
      reasons.push_back({{"kind", reason_kind_name(r.kind)}, {"cell", r.cell}, {"text", r.text}});
      lines.push_back(reason_line(r));
    }
    json["verdict"] = {{"outcome", outcome_name(v.outcome)},
                       {"ok", v.ok()},
                       {"known_bad", v.known_bad},
                       {"reasons", reasons},
                       {"lines", lines}};
    if (!v.warnings.empty()) {
      json["verdict"]["warnings"] = v.warnings;
    }
    if (!v.identity.empty()) {
      json["verdict"]["identity"] = v.identity;
    }
    if (!v.outcomes.empty()) {
      nlohmann::json outcomes = nlohmann::json::array();
      for (const auto& o : v.outcomes) {
        outcomes.push_back({{"cell", o.cell}, {"outcome", outcome_name(o.outcome)}});
      }
      json["verdict"]["outcomes"] = outcomes;
    }
  }
  return json;
}

SeriesVerdict verdict_from(const std::string& series, const nlohmann::json& v) {
  SeriesVerdict verdict;
  verdict.series = series;
  verdict.known_bad = v.value("known_bad", false);
  // A gate.json written before verdicts had an outcome: ok, and EXPECTED
  // for a known-bad revision.
  const bool ok = v.value("ok", false);
  verdict.outcome = parse_outcome(v.value("outcome", ""))
                        .value_or(ok ? (verdict.known_bad ? Outcome::k_xfail : Outcome::k_pass)
                                     : Outcome::k_fail);
  if (v.contains("reasons")) {
    for (const auto& r : v["reasons"]) {
      verdict.reasons.push_back(
          {parse_reason_kind(r.value("kind", "")), r.value("cell", ""), r.value("text", "")});
    }
  } else {
    for (const auto& line : v.value("lines", std::vector<std::string>{})) {
      verdict.reasons.push_back({ReasonKind::k_note, "", line});
    }
  }
  verdict.warnings = v.value("warnings", std::vector<std::string>{});
  verdict.identity = v.value("identity", "");
  for (const auto& o : v.value("outcomes", nlohmann::json::array())) {
    verdict.outcomes.push_back(
        {o.value("cell", ""), parse_outcome(o.value("outcome", "")).value_or(Outcome::k_error)});
  }
  return verdict;
}

StoredGate stored_from(const nlohmann::json& json) {
  StoredGate stored;
  stored.started = json.value("started", "");
  if (json.contains("base")) {
    stored.base_commit = json["base"].value("commit", "");
    stored.base_label = json["base"].value("label", "");
  }
  for (const auto& s : json.value("series", nlohmann::json::array())) {
    SeriesRecord series{s.value("series", ""), s.value("source", ""), {}, std::nullopt};
    for (const auto& p : s.value("patches", nlohmann::json::array())) {
      series.patches.push_back(
          {p.value("file", ""), p.value("subject", ""), p.value("sha256", "")});
    }
    if (s.contains("verdict")) {
      series.verdict = verdict_from(series.series, s["verdict"]);
    }
    stored.series.push_back(std::move(series));
  }
  for (const auto& c : json.value("cells", nlohmann::json::array())) {
    CellResult cell;
    cell.series = c.value("series", "");
    cell.cell = c.value("cell", "");
    cell.status = parse_outcome(c.value("status", "")).value_or(Outcome::k_error);
    cell.summary = c.value("summary", "");
    cell.detail = c.value("detail", "");
    cell.seconds = c.value("seconds", 0.0);
    cell.properties = c.value("properties", std::map<std::string, std::string>{});
    stored.cells.push_back(std::move(cell));
  }
  if (json.contains("end")) {
    const auto& end = json["end"];
    stored.finished = true;
    // An older gate.json has only ok and interrupted.
    stored.outcome = parse_outcome(end.value("outcome", ""))
                         .value_or(end.value("interrupted", false) ? Outcome::k_interrupted
                                   : end.value("ok", false)        ? Outcome::k_pass
                                                                   : Outcome::k_fail);
    for (const auto& stage : end.value("time", nlohmann::json::array())) {
      // results.json and gate.json write a NaN as null.
      const bool number = stage.contains("seconds") && stage["seconds"].is_number();
      stored.time.emplace_back(stage.value("stage", ""),
                               number ? stage["seconds"].get<double>() : 0.0);
    }
  }
  return stored;
}

}  // namespace

std::string Reason::sentence() const { return cell.empty() ? text : cell + " " + text; }

std::string reason_line(const Reason& reason) {
  switch (reason.kind) {
    case ReasonKind::k_failed:
      return "FAILED " + reason.cell + ": " + reason.text;
    case ReasonKind::k_unmet_expectation:
      return "ERROR " + reason.sentence();
    case ReasonKind::k_expectation_holds:
      return "expected failure holds: " + reason.cell + ": " + reason.text;
    case ReasonKind::k_not_in_plan:
      return "not in this matrix: " + reason.sentence();
    case ReasonKind::k_note:
      break;
  }
  return reason.sentence();
}

Outcome SeriesVerdict::outcome_of(const std::string& cell, Outcome fallback) const {
  for (const auto& o : outcomes) {
    if (o.cell == cell) {
      return o.outcome;
    }
  }
  return fallback;
}

CellStore::CellStore(fs::path file) : m_file(std::move(file)), m_started(utc_now()) {}

StoredGate load_gate_store(const fs::path& file) {
  const auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.is_object() || !json.contains("cells") ||
      !json["cells"].is_array()) {
    throw usage_error(file.string() + ": not a gate cell store (no \"cells\" array)");
  }
  try {
    return stored_from(json);
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": not a gate cell store: " + e.what());
  }
}

std::vector<CellResult> load_cells(const fs::path& file) { return load_gate_store(file).cells; }

StoredGate read_gate_json(const fs::path& file) {
  const auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.is_object()) {
    throw usage_error(file.string() + ": not a JSON object");
  }
  // A value of the wrong type (a number where a string goes) is the file's
  // fault: named, exit 2, not "internal error" without the file.
  try {
    return stored_from(json);
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": " + e.what());
  }
}

void CellStore::load_previous(const fs::path& file) {
  const auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.contains("cells")) {
    return;
  }
  for (auto& cell : load_cells(file)) {
    if (cell.status != Outcome::k_error) {
      m_previous.push_back(std::move(cell));
    }
  }
}

const CellResult* CellStore::previous(const std::string& series, const std::string& cell) const {
  for (const auto& c : m_previous) {
    if (c.series == series && c.cell == cell) {
      return &c;
    }
  }
  return nullptr;
}

void CellStore::record(CellResult result) {
  m_cells.push_back(std::move(result));
  save();
}

void CellStore::set_section(const std::string& key, nlohmann::json value) {
  m_sections[key] = std::move(value);
  save();
}

void CellStore::set_base(const std::string& commit, const std::string& label) {
  m_base = {{"commit", commit}, {"label", label}};
  save();
}

void CellStore::describe(SeriesRecord series) {
  for (auto& s : m_series) {
    if (s.series == series.series) {
      s = std::move(series);
      save();
      return;
    }
  }
  m_series.push_back(std::move(series));
  save();
}

void CellStore::judge(const SeriesVerdict& verdict) {
  for (auto& s : m_series) {
    if (s.series == verdict.series) {
      s.verdict = verdict;
      save();
      return;
    }
  }
  // A series that could not even be loaded has no record yet.
  m_series.push_back({verdict.series, verdict.series, {}, verdict});
  save();
}

void CellStore::finish(Outcome outcome, const std::vector<std::pair<std::string, double>>& time) {
  nlohmann::json seconds = nlohmann::json::array();  // in the order the stages ran
  for (const auto& [stage, s] : time) {
    seconds.push_back({{"stage", stage}, {"seconds", s}});
  }
  m_end = {{"outcome", outcome_name(outcome)},
           {"ok", !is_failure(outcome)},
           {"interrupted", outcome == Outcome::k_interrupted},
           {"finished", utc_now()},
           {"time", seconds}};
  save();
}

void CellStore::save() const {
  nlohmann::json json = {{"kind", "gate"},
                         {"started", m_started},
                         {"series", nlohmann::json::array()},
                         {"cells", nlohmann::json::array()}};
  if (!m_base.is_null()) {
    json["base"] = m_base;
  }
  for (const auto& s : m_series) {
    json["series"].push_back(to_json(s));
  }
  for (const auto& c : m_cells) {
    json["cells"].push_back(to_json(c));
  }
  if (!m_end.is_null()) {
    json["end"] = m_end;
  }
  for (const auto& [key, value] : m_sections.items()) {
    json[key] = value;
  }
  // Written whole after every change: a gate cut off here still has its
  // report. Text the guest or a compiler printed may not be UTF-8.
  const fs::path tmp = m_file.string() + ".tmp";
  write_file(tmp, json_text(json));
  fs::rename(tmp, m_file);
}

}  // namespace kseries::results
