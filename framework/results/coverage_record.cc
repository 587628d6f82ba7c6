#include "results/coverage_record.h"

#include "core/error.h"
#include "core/json_text.h"
#include "sys/files.h"

namespace kseries::results {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// The four counts, as the summary and each cell keep them.
void put_counts(const CoverageCounts& c, json& out) {
  out["changed"] = c.changed;
  out["executed"] = c.executed;
  out["compiled_not_run"] = c.compiled_not_run;
  out["never_compiled"] = c.never_compiled;
}

CoverageCounts counts_from(const Fields& f) {
  return {f.integer("changed"), f.integer("executed"), f.integer("compiled_not_run"),
          f.integer("never_compiled")};
}

json line_json(const CoverageLineRecord& l, bool merged) {
  json out = {
      {"patch", l.patch},       {"file", l.file}, {"line", l.line},   {"status", l.status},
      {"modifies", l.modifies}, {"text", l.text}, {"units", l.units}, {"executions", l.executions}};
  if (l.reason) {
    out["reason"] = {{"key", l.reason->key},
                     {"details", l.reason->details},
                     {"impossible", l.reason->impossible}};
  }
  if (!l.note.empty()) {
    out["note"] = l.note;
  }
  if (merged) {
    out["compiled_in"] = l.compiled_in;
    out["executed_in"] = l.executed_in;
  }
  return out;
}

json cell_json(const CoverageCellRecord& c) {
  json out = {{"cell", c.cell},
              {"cover_files", c.cover_files},
              {"addresses", c.addresses},
              {"line", c.line}};
  if (c.target) {
    out["target"] = *c.target;
  }
  put_counts(c.counts, out);
  return out;
}

// The names of the list at KEY that are text.
std::vector<std::string> names(const Fields& f, const char* key) {
  std::vector<std::string> out;
  if (const json* list = f.array(key)) {
    for (const auto& name : *list) {
      if (name.is_string()) {
        out.push_back(name.get<std::string>());
      }
    }
  }
  return out;
}

CoverageLineRecord line_from(const Fields& f) {
  CoverageLineRecord line;
  line.patch = f.integer("patch");
  line.file = f.text("file");
  line.line = f.integer("line");
  line.status = f.text("status");
  line.compiled_in = names(f, "compiled_in");
  line.executed_in = names(f, "executed_in");
  if (const json* reason = f.get("reason"); reason && reason->is_object()) {
    const Fields r(*reason, f.where("reason"));
    line.reason = CoverageReasonRecord{r.text("key"), texts(r, "details"), r.flag("impossible")};
  }
  line.note = f.text("note");
  line.text = f.text("text");
  line.modifies = f.flag("modifies");
  line.units = f.count("units");
  line.executions = f.count("executions");
  return line;
}

}  // namespace

json to_json(const CoverageRecord& r) {
  json summary = {{"no_code", r.no_code}, {"macro", r.macro}, {"ran", r.ran}};
  put_counts(r.summary, summary);
  if (r.summary_line) {
    summary["line"] = *r.summary_line;
  }
  json lines = json::array();
  for (const auto& line : r.lines) {
    lines.push_back(line_json(line, r.merged));
  }
  json out = {{"summary", std::move(summary)}, {"lines", std::move(lines)}};
  if (!r.series.empty()) {
    out["series"] = r.series;
  }
  if (!r.tree.empty()) {
    out["tree"] = r.tree;
  }
  if (r.patches) {
    out["patches"] = *r.patches;
  }
  if (r.vmlinux) {
    out["vmlinux"] = *r.vmlinux;
  }
  if (r.merged) {
    out["cells"] = json::array();
    for (const auto& cell : r.cells) {
      out["cells"].push_back(cell_json(cell));
    }
  }
  return out;
}

CoverageRecord coverage_record_from(const json& object) {
  const Fields f(object, "");
  CoverageRecord record;
  record.series = f.text("series");
  record.tree = f.text("tree");
  if (f.get("patches")) {
    record.patches = f.integer("patches");
  }
  if (f.get("vmlinux")) {
    record.vmlinux = f.text("vmlinux");
  }
  if (const auto* summary = f.object("summary")) {
    const Fields s(*summary, "summary");
    if (s.get("line")) {
      record.summary_line = s.text("line");
    }
    record.summary = counts_from(s);
    record.no_code = s.integer("no_code");
    record.macro = s.integer("macro");
    record.ran = s.flag("ran");
  }
  record.merged = f.get("cells") != nullptr;
  record.cells = each<CoverageCellRecord>(f, "cells", [](const Fields& c) {
    CoverageCellRecord cell{c.text("cell"),           std::nullopt,   c.text("line"),
                            c.integer("cover_files"), counts_from(c), c.count("addresses")};
    if (c.get("target")) {
      cell.target = c.text("target");
    }
    return cell;
  });
  if (const json* lines = f.array("lines")) {
    for (std::size_t i = 0; i < lines->size(); ++i) {
      if ((*lines)[i].is_object()) {
        record.lines.push_back(line_from(Fields((*lines)[i], indexed("lines", i))));
      }
    }
  }
  return record;
}

std::optional<CoverageRecord> read_coverage_file(const fs::path& file, const std::string& label) {
  std::error_code ec;
  if (file.empty() || !fs::is_regular_file(file, ec)) {
    return std::nullopt;
  }
  bool truncated = false;
  const std::string text = read_file_head(file, std::size_t{64} << 20, truncated);
  const json parsed = truncated ? json(nullptr) : parse_json_text(text);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return std::nullopt;
  }
  try {
    return coverage_record_from(parsed);
  } catch (const Error& e) {
    throw usage_error(file.string() + label + ": a value of the wrong type: " + e.what());
  }
}

}  // namespace kseries::results
