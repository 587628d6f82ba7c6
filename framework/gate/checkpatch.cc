#include "gate/checkpatch.h"

#include <chrono>
#include <cstring>

#include "core/text.h"
#include "core/utf8.h"
#include "gate/gate.h"
#include "gate/per_patch.h"
#include "git/blob_reader.h"
#include "results/facts.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

CheckpatchReport parse_checkpatch(const std::string& output) {
  CheckpatchReport report;
  report.ran = true;
  for (const auto raw : split_lines(output)) {
    const std::string line(raw);
    // --terse: "<file>:<line>: ERROR:<TYPE>: message" (with --show-types)
    for (const auto& [tag, count] : {std::pair<const char*, int*>{": ERROR:", &report.errors},
                                     {": WARNING:", &report.warnings},
                                     {": CHECK:", &report.checks}}) {
      const auto at = line.find(tag);
      if (at != std::string::npos) {
        ++*count;
        report.lines.push_back(line.substr(at + 2));
        const std::string severity(tag + 2, std::strlen(tag) - 3);
        const auto type_at = at + std::strlen(tag);
        const auto type_end = line.find(':', type_at);
        const std::string type = type_end == std::string::npos
                                     ? std::string("?")
                                     : line.substr(type_at, type_end - type_at);
        ++report.types[{severity, type.empty() ? "?" : type}];
        break;
      }
    }
  }
  return report;
}

Checkpatch::Checkpatch(const git::Store& store, const git_oid& base, fs::path work_dir,
                       ProcessRunner& runner)
    : m_dir(std::move(work_dir)), m_runner(runner) {
  fs::create_directories(m_dir / "scripts");
  for (const char* file :
       {"scripts/checkpatch.pl", "scripts/spelling.txt", "scripts/const_structs.checkpatch"}) {
    const auto text = git::read_blob_at(store, base, file);
    if (!text) {
      if (std::string(file) == "scripts/checkpatch.pl") {
        m_missing = "the base tree has no scripts/checkpatch.pl";
      }
      continue;
    }
    write_file(m_dir / file, *text);
  }
  if (!find_program("perl")) {
    m_missing = "perl is not installed";
  }
}

CheckpatchReport Checkpatch::check(const PatchMail& patch, const std::string& name) {
  if (!m_missing.empty()) {
    CheckpatchReport report;
    report.why_not = m_missing;
    return report;
  }
  const fs::path file = m_dir / (name + ".patch");
  write_file(file, "From: " + patch.author.name + " <" + patch.author.email +
                       ">\nSubject: [PATCH] " + patch.subject.title + "\n\n" + patch.body +
                       "\n---\n" + patch.diff);
  ProcessSpec spec;
  spec.argv = {"perl",         (m_dir / "scripts/checkpatch.pl").string(),
               "--no-tree",    "--terse",
               "--no-summary", "--show-types",
               "--no-color",   file.string()};
  spec.timeout = std::chrono::minutes(2);
  spec.capture = true;
  const auto result = m_runner.run(spec);
  if (result.end != ProcessEnd::k_exited) {
    CheckpatchReport report;
    report.why_not = "checkpatch.pl " + result.describe();
    return report;
  }
  // checkpatch quotes the patch's lines: any byte a patch carries.
  return parse_checkpatch(printable_text(result.out));
}

namespace {

// Whitespace runs folded to one space, the ends trimmed.
std::string fold_space(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    out += c;
  }
  return out;
}

// "8/8" or "3/8, 8/8": the patches of a type, of N.
std::string patch_list(const std::set<int>& patches, std::size_t of) {
  std::string out;
  for (const int patch : patches) {
    out += (out.empty() ? "" : ", ") + std::to_string(patch) + "/" + std::to_string(of);
  }
  return out;
}

}  // namespace

bool diff_lines_in_posting(const std::string& diff, const std::string& posting) {
  const std::string folded = fold_space(posting);
  bool any = false;
  for (const auto line : split_lines(diff)) {
    if (line.empty() || (line[0] != '+' && line[0] != '-') || starts_with(line, "+++ ") ||
        starts_with(line, "--- ")) {
      continue;
    }
    any = true;
    // "+\tcase 4: ..." is "+ case 4: ..." once folded, in the patch and in
    // a posting whose line breaks were lost alike.
    std::string text = fold_space(line.substr(1));
    text = text.empty() ? std::string(1, line[0]) : std::string(1, line[0]) + " " + text;
    if (folded.find(text) == std::string::npos &&
        folded.find(std::string(1, line[0]) + fold_space(line.substr(1))) == std::string::npos) {
      return false;
    }
  }
  return any;
}

UpstreamPatches upstream_patches(const Series& series) {
  UpstreamPatches upstream;
  const fs::path file = series.source / "upstream";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    return upstream;
  }
  const std::string text = read_file(file);  // the lines below are views of it
  for (const auto raw : split_lines(text)) {
    const auto line = trim(raw.substr(0, raw.find('#')));
    if (line.empty()) {
      continue;
    }
    const auto space = line.find_first_of(" \t");
    const std::string number(line.substr(0, space));
    const std::string rest(space == std::string_view::npos ? "" : trim(line.substr(space)));
    const std::string posting = rest.substr(0, rest.find_first_of(" \t"));
    int patch = 0;
    try {
      patch = std::stoi(number);
    } catch (const std::exception&) {
      patch = 0;
    }
    const std::string where = file.string() + ": '" + std::string(line) + "'";
    if (patch < 1 || static_cast<std::size_t>(patch) > series.patches.size() || posting.empty()) {
      upstream.notes.push_back(where + ": not 'PATCH POSTING' with PATCH from 1 to " +
                               std::to_string(series.patches.size()));
      continue;
    }
    const fs::path posted = series.source / posting;
    if (!fs::is_regular_file(posted, ec)) {
      upstream.notes.push_back(where + ": no posting " + posted.string());
      continue;
    }
    if (!diff_lines_in_posting(series.patches[patch - 1].diff, read_file(posted))) {
      upstream.notes.push_back(where + ": patch " + number + " is not the posting as posted " +
                               "(a line it adds or removes is not in it): counted as the port's");
      continue;
    }
    upstream.as_posted.insert(patch);
  }
  return upstream;
}

namespace {

// Every patch of SERIES through CHECKER: the cell CELL of the series SERIES_NAME.
results::CellResult check_series(const std::string& series_name, const std::string& cell_name,
                                 const Series& series, Checkpatch& checker) {
  results::CellResult cell{series_name, cell_name, results::Outcome::k_pass, "", "", 0, {}};
  const UpstreamPatches upstream = upstream_patches(series);
  int errors = 0, warnings = 0, upstream_errors = 0;
  // Per severity and type: the count and the patches.
  std::map<std::pair<std::string, std::string>, std::pair<int, std::set<int>>> types;
  std::string types_property;
  for (std::size_t i = 0; i < series.patches.size(); ++i) {
    const auto report =
        checker.check(series.patches[i], file_safe(series_name) + "-" + std::to_string(i + 1));
    if (!report.ran) {
      cell.status = results::Outcome::k_skip;
      cell.summary = report.why_not;
      break;
    }
    errors += report.errors;
    warnings += report.warnings;
    const int patch = i + 1;
    if (upstream.as_posted.count(patch)) {
      upstream_errors += report.errors;
    }
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_errors,
                            std::to_string(report.errors));
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_warnings,
                            std::to_string(report.warnings));
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_checks,
                            std::to_string(report.checks));
    for (const auto& [key, count] : report.types) {
      types[key].first += count;
      types[key].second.insert(patch);
      types_property += std::to_string(patch) + " " + key.first + " " + key.second + " " +
                        std::to_string(count) + "\n";
    }
    for (const auto& line : report.lines) {
      cell.detail += series.label(i) + ": " + line + "\n";
    }
  }
  for (const auto& note : upstream.notes) {
    cell.detail += "upstream: " + note + "\n";
  }
  if (cell.status == results::Outcome::k_pass) {
    cell.properties[k_checkpatch_types] = types_property;
    std::string posted;
    for (const int patch : upstream.as_posted) {
      posted += (posted.empty() ? "" : " ") + std::to_string(patch);
    }
    cell.properties[k_checkpatch_upstream] = posted;
    // Style is the maintainer's call: reported, never fatal here.
    cell.summary = std::to_string(errors) + " error(s), " + std::to_string(warnings) +
                   " warning(s) from the tree's checkpatch.pl (reported, not fatal)";
    for (const char* severity : {"ERROR", "WARNING"}) {
      std::string list;
      for (const auto& [key, found] : types) {
        if (key.first == severity) {
          list += (list.empty() ? "" : ", ") + key.second + " " + std::to_string(found.first) +
                  " (" + patch_list(found.second, series.patches.size()) + ")";
        }
      }
      if (!list.empty()) {
        cell.summary += std::string("; ") + (severity[0] == 'E' ? "errors: " : "warnings: ") + list;
      }
    }
    if (!upstream.as_posted.empty() && errors > 0) {
      cell.summary += "; " + std::to_string(upstream_errors) + " of the " + std::to_string(errors) +
                      " error(s) in patches posted upstream as they are (" +
                      patch_list(upstream.as_posted, series.patches.size()) + "), " +
                      std::to_string(errors - upstream_errors) + " the port's";
    }
  }
  return cell;
}

class CheckpatchStage final : public Stage {
 public:
  results::CellKind kind() const override { return results::k_checkpatch_cell; }
  std::string time_bucket() const override { return "checkpatch"; }

  std::vector<PlannedCell> plan(const ResolvedMatrix&) const override {
    return {{results::CellId::checkpatch(), nullptr, nullptr, "series"}};
  }

  std::optional<WorkInput> work(const PlannedCell&, const SeriesInput&) const override {
    return WorkInput{};
  }

  results::CellResult run(const PlannedCell& planned, SeriesInput& input) const override {
    Checkpatch checker(input.services.store, input.request.base,
                       input.request.run_dir / "checkpatch", input.services.runner);
    return check_series(input.name, planned.name(), input.series(), checker);
  }
};

}  // namespace

const Stage& checkpatch_stage() {
  static const CheckpatchStage stage;
  return stage;
}

}  // namespace kseries::gate
