#include "results/coverage_record.h"

#include "core/error.h"
#include "core/json_text.h"
#include "sys/files.h"

namespace kseries::results {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

CoverageCounts counts_from(const Fields& f) {
  return {f.integer("changed"), f.integer("executed"), f.integer("compiled_not_run"),
          f.integer("never_compiled")};
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
    line.reason = Fields(*reason, f.where("reason")).text("key");
  }
  line.note = f.text("note");
  line.text = f.text("text");
  return line;
}

}  // namespace

CoverageRecord coverage_record_from(const json& object) {
  const Fields f(object, "");
  CoverageRecord record;
  if (const auto* summary = f.object("summary")) {
    const Fields s(*summary, "summary");
    if (s.get("line")) {
      record.summary_line = s.text("line");
    }
    record.summary = counts_from(s);
  }
  record.cells = each<CoverageCellRecord>(f, "cells", [](const Fields& c) {
    CoverageCellRecord cell{c.text("cell"), std::nullopt, c.text("line"), c.integer("cover_files"),
                            counts_from(c)};
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
