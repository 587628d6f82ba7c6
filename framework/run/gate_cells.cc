#include "run/gate_cells.h"

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_text.h"
#include "report/junit.h"
#include "sys/files.h"

namespace kseries::run {

namespace fs = std::filesystem;

namespace {

CellStatus status_from(const std::string& name) {
  if (name == "pass") {
    return CellStatus::k_pass;
  }
  if (name == "fail") {
    return CellStatus::k_fail;
  }
  if (name == "skip") {
    return CellStatus::k_skip;
  }
  return CellStatus::k_error;
}

nlohmann::json to_json(const CellResult& c) {
  return {{"series", c.series},        {"cell", c.cell},     {"status", cell_status_name(c.status)},
          {"summary", c.summary},      {"detail", c.detail}, {"seconds", c.seconds},
          {"properties", c.properties}};
}

nlohmann::json to_json(const SeriesRecord& s) {
  nlohmann::json patches = nlohmann::json::array();
  for (const auto& p : s.patches) {
    patches.push_back({{"file", p.file}, {"subject", p.subject}, {"sha256", p.sha256}});
  }
  nlohmann::json json = {{"series", s.series}, {"source", s.source}, {"patches", patches}};
  if (s.verdict) {
    json["verdict"] = {
        {"ok", s.verdict->ok}, {"known_bad", s.verdict->known_bad}, {"lines", s.verdict->lines}};
    if (!s.verdict->warnings.empty()) {
      json["verdict"]["warnings"] = s.verdict->warnings;
    }
    if (!s.verdict->identity.empty()) {
      json["verdict"]["identity"] = s.verdict->identity;
    }
  }
  return json;
}

}  // namespace

std::string cell_status_name(CellStatus status) {
  switch (status) {
    case CellStatus::k_pass:
      return "pass";
    case CellStatus::k_fail:
      return "fail";
    case CellStatus::k_skip:
      return "skip";
    case CellStatus::k_error:
      return "error";
  }
  return "?";
}

CellStore::CellStore(fs::path file)
    : m_file(std::move(file)), m_started(report::utc_timestamp() + "Z") {}

StoredGate load_gate_store(const fs::path& file) {
  const auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.is_object() || !json.contains("cells") ||
      !json["cells"].is_array()) {
    throw usage_error(file.string() + ": not a gate cell store (no \"cells\" array)");
  }
  StoredGate stored;
  try {
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
        series.verdict = SeriesVerdict{series.series, s["verdict"].value("ok", false),
                                       s["verdict"].value("known_bad", false),
                                       s["verdict"].value("lines", std::vector<std::string>{})};
        series.verdict->warnings = s["verdict"].value("warnings", std::vector<std::string>{});
        series.verdict->identity = s["verdict"].value("identity", "");
      }
      stored.series.push_back(std::move(series));
    }
    for (const auto& c : json["cells"]) {
      CellResult cell;
      cell.series = c.value("series", "");
      cell.cell = c.value("cell", "");
      cell.status = status_from(c.value("status", ""));
      cell.summary = c.value("summary", "");
      cell.detail = c.value("detail", "");
      cell.seconds = c.value("seconds", 0.0);
      cell.properties = c.value("properties", std::map<std::string, std::string>{});
      stored.cells.push_back(std::move(cell));
    }
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": not a gate cell store: " + e.what());
  }
  return stored;
}

std::vector<CellResult> load_cells(const fs::path& file) { return load_gate_store(file).cells; }

void CellStore::load_previous(const fs::path& file) {
  const auto json = parse_json_text(read_file(file));
  if (json.is_discarded() || !json.contains("cells")) {
    return;
  }
  for (auto& cell : load_cells(file)) {
    if (cell.status != CellStatus::k_error) {
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

void CellStore::finish(bool ok, bool interrupted,
                       const std::vector<std::pair<std::string, double>>& time) {
  nlohmann::json seconds = nlohmann::json::array();  // in the order the stages ran
  for (const auto& [stage, s] : time) {
    seconds.push_back({{"stage", stage}, {"seconds", s}});
  }
  m_end = {{"ok", ok},
           {"interrupted", interrupted},
           {"finished", report::utc_timestamp() + "Z"},
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

SeriesVerdict judge_series(const std::string& series, const std::vector<CellResult>& cells,
                           const std::optional<Expectations>& expectations,
                           const std::vector<std::string>* planned) {
  SeriesVerdict verdict{series, true, expectations.has_value(), {}};
  std::vector<std::string> seen;
  for (const auto& c : cells) {
    if (c.series != series) {
      continue;
    }
    seen.push_back(c.cell);
    const Expectation* expected = expectations ? expectations->find(c.cell) : nullptr;
    if (expected) {
      if (c.status == CellStatus::k_fail && c.detail.find(expected->text) != std::string::npos) {
        verdict.lines.push_back("expected failure holds: " + c.cell + ": " + expected->text);
      } else if (c.status == CellStatus::k_fail) {
        verdict.ok = false;
        verdict.lines.push_back("ERROR " + c.cell + " failed, but not with '" + expected->text +
                                "' (" + expectations->file.string() + ":" +
                                std::to_string(expected->line) + "): " + c.summary);
      } else {
        verdict.ok = false;
        verdict.lines.push_back("ERROR " + c.cell + " was expected to fail with '" +
                                expected->text + "' but is " + cell_status_name(c.status) +
                                (c.summary.empty() ? "" : ": " + c.summary));
      }
    } else if (c.status == CellStatus::k_fail || c.status == CellStatus::k_error) {
      verdict.ok = false;
      verdict.lines.push_back("FAILED " + c.cell + ": " + c.summary);
    }
  }
  if (expectations) {
    std::size_t applicable = 0;
    for (const auto& e : expectations->fails) {
      if (planned && std::find(planned->begin(), planned->end(), e.cell) == planned->end()) {
        verdict.lines.push_back("not in this matrix: " + e.cell + " (" +
                                expectations->file.string() + ":" + std::to_string(e.line) +
                                " not checked)");
        continue;
      }
      ++applicable;
      if (std::find(seen.begin(), seen.end(), e.cell) == seen.end()) {
        verdict.ok = false;
        verdict.lines.push_back("ERROR " + e.cell + " was expected to fail but did not run (" +
                                expectations->file.string() + ":" + std::to_string(e.line) + ")");
      }
    }
    if (applicable == 0 && !expectations->fails.empty()) {
      verdict.ok = false;
      verdict.lines.push_back("ERROR no expectation of " + expectations->file.string() +
                              " is in this matrix: nothing here can catch this known-bad revision");
    }
  }
  return verdict;
}

}  // namespace kseries::run
