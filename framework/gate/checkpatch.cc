#include "gate/checkpatch.h"

#include <chrono>

#include "core/text.h"
#include "core/utf8.h"
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
    // --terse: "<file>:<line>: ERROR: <TYPE>: message" (with --show-types)
    for (const auto& [tag, count] : {std::pair<const char*, int*>{": ERROR:", &report.errors},
                                     {": WARNING:", &report.warnings},
                                     {": CHECK:", &report.checks}}) {
      const auto at = line.find(tag);
      if (at != std::string::npos) {
        ++*count;
        report.lines.push_back(line.substr(at + 2));
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

results::CellResult checkpatch_stage(const std::string& series_name, const Series& series,
                                     Checkpatch& checker) {
  const auto start = std::chrono::steady_clock::now();
  results::CellResult cell{
      series_name, results::CellId::checkpatch().to_string(), results::Outcome::k_pass, "", "", 0,
      {}};
  int errors = 0, warnings = 0;
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
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_errors,
                            std::to_string(report.errors));
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_warnings,
                            std::to_string(report.warnings));
    results::set_patch_fact(cell.properties, patch, results::PatchFact::k_checks,
                            std::to_string(report.checks));
    for (const auto& line : report.lines) {
      cell.detail += series.label(i) + ": " + line + "\n";
    }
  }
  if (cell.status == results::Outcome::k_pass) {
    // Style is the maintainer's call: reported, never fatal.
    cell.summary = std::to_string(errors) + " error(s), " + std::to_string(warnings) +
                   " warning(s) from the tree's checkpatch.pl (reported, not fatal)";
  }
  cell.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return cell;
}

}  // namespace kseries::gate
