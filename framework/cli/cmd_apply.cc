// kseries apply: take a series in, apply it (prerequisites first) onto the
// base in memory, and create a branch only for what fully applied.
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/utf8.h"
#include "git/apply.h"
#include "git/branch_name.h"
#include "report/junit.h"
#include "series/revision_identity.h"
#include "series/series_chain.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

std::string two_digits(std::size_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// The patch file an outcome is about (GitLab's `file`), "" if unknown.
std::string patch_file(const std::vector<std::unique_ptr<Series>>& chain,
                       const git::PatchOutcome& outcome) {
  for (const auto& series : chain) {
    if (series->name == outcome.series_name && outcome.index < series->patches.size()) {
      return report::path_for_report(series->patches[outcome.index].file);
    }
  }
  return "";
}

report::TestSuite junit_suite(const std::vector<std::unique_ptr<Series>>& chain,
                              const git::ApplyResult& result, const Base& base,
                              const std::string& branch) {
  const Series& top = *chain.back();
  report::TestSuite suite;
  suite.name = "kseries apply " + top.name;
  suite.timestamp = report::utc_timestamp();
  suite.properties = {{"base", git::to_hex(base.commit)},
                      {"base_label", base.label},
                      {"series", top.source.string()},
                      {"revision", std::to_string(top.revision)},
                      {"branch", branch}};
  if (result.tip) {
    suite.properties.emplace_back("tip", git::to_hex(*result.tip));
  }
  for (const auto& warning : result.warnings) {
    suite.properties.emplace_back("warning", warning);
  }
  for (const auto& outcome : result.outcomes) {
    report::TestCase test;
    test.classname = "apply." + outcome.series_name;
    test.name = two_digits(outcome.index + 1) + " " + outcome.subject;
    test.seconds = outcome.seconds;
    test.file = patch_file(chain, outcome);
    switch (outcome.status) {
      case git::PatchStatus::k_applied:
        test.properties = {{"commit", git::to_hex(outcome.commit)}};
        break;
      case git::PatchStatus::k_failed:
        test.status = report::CaseStatus::k_failed;
        test.message = "does not apply: " + outcome.label;
        test.detail = outcome.failure;
        break;
      case git::PatchStatus::k_not_attempted:
        test.status = report::CaseStatus::k_skipped;
        test.message = "not attempted: an earlier patch did not apply";
        break;
    }
    suite.cases.push_back(std::move(test));
  }
  return suite;
}

po::options_description apply_options() {
  po::options_description options("kseries apply options");
  options.add_options()(
      "series", po::value<std::string>()->required(),
      "series directory (format-patch files + a 'series' file), one mbox, a range or "
      "b4 prep branch of --tree, or a message-id (b4, --inbox)")(
      "branch", po::value<std::string>(),
      "branch to create in the work directory's repository (default series/<name>)")(
      "upto", po::value<std::size_t>(), "apply only the first K patches of the series")(
      "keep-applied",
      "when a patch fails, still create a branch <branch>.partial-K-of-N holding the K "
      "patches that applied")("replace", "move the branch if it exists with another tip")(
      "junit", po::value<std::string>(),
      "also write the JUnit XML report to this file ('-': stdout)")(
      "max-patch-bytes", po::value<std::size_t>()->default_value(8u << 20),
      "refuse a patch whose diff is larger");
  options.add(base_options());
  options.add(series_input_options());
  return options;
}

// What the intake phase read: the chain (prerequisites first) and the branch
// its result goes to.
struct Intake {
  std::vector<std::unique_ptr<Series>> chain;
  std::string branch;
  const Series& top() const { return *chain.back(); }
};

// Parses and validates everything before any repository is touched.
Intake read_intake(const po::variables_map& vm, const fs::path& source) {
  SeriesLimits limits;
  limits.max_patch_bytes = vm["max-patch-bytes"].as<std::size_t>();
  Intake intake;
  intake.chain = load_series_chain(source, limits);
  const Series& top = intake.top();
  for (const auto& series : intake.chain) {
    for (const auto& note : series->notes) {
      progress("note: " + note);
    }
  }
  if (vm.count("upto") &&
      (vm["upto"].as<std::size_t>() == 0 || vm["upto"].as<std::size_t>() > top.patches.size())) {
    throw usage_error("--upto " + std::to_string(vm["upto"].as<std::size_t>()) +
                      ": the series has " + std::to_string(top.patches.size()) + " patches");
  }
  intake.branch = vm.count("branch") ? vm["branch"].as<std::string>() : "series/" + top.name;
  if (vm.count("upto") && vm["upto"].as<std::size_t>() < top.patches.size()) {
    intake.branch += ".upto-" + std::to_string(vm["upto"].as<std::size_t>());
  }
  intake.branch = git::branch_name(intake.branch);
  return intake;
}

// In memory, with libgit2; no ref moves yet.
git::ApplyResult apply_in_memory(Context& context, const Intake& intake, const Base& base,
                                 const po::variables_map& vm) {
  const Series& top = intake.top();
  progress("applying " + top.name + " (v" + std::to_string(top.revision) + ", " +
           std::to_string(top.patches.size()) + " patches" +
           (intake.chain.size() > 1
                ? ", after " + std::to_string(intake.chain.size() - 1) + " prerequisite series"
                : "") +
           ") onto " + git::to_hex(base.commit).substr(0, 12) + " (" + base.label + ")");
  git::ApplyRequest request;
  request.base = base.commit;
  request.base_label = base.label;
  for (const auto& series : intake.chain) {
    request.chain.push_back(series.get());
  }
  if (vm.count("upto")) {
    request.upto = vm["upto"].as<std::size_t>();
  }
  auto result = git::apply_chain(context.store(), request, [](const git::PatchOutcome& o) {
    progress(std::string(o.status == git::PatchStatus::k_applied ? "applied " : "FAILED  ") +
             o.series_name + " " + std::to_string(o.index + 1) + "/" + std::to_string(o.total) +
             " " + o.subject);
  });
  for (const auto& warning : result.warnings) {
    progress("warning: " + warning);
  }
  return result;
}

// Creates the branch, only for what applied; returns its name ("" for none).
std::string create_branch(Context& context, const Intake& intake, const git::ApplyResult& result,
                          const Base& base, const po::variables_map& vm) {
  std::string branch = intake.branch;
  if (!result.complete && vm.count("keep-applied") && result.tip) {
    size_t applied = 0;
    for (const auto& outcome : result.outcomes) {
      applied += outcome.status == git::PatchStatus::k_applied ? 1 : 0;
    }
    branch +=
        ".partial-" + std::to_string(applied) + "-of-" + std::to_string(result.outcomes.size());
  }
  if (!result.complete && !(vm.count("keep-applied") && result.tip)) {
    return "";
  }
  const git_oid tip = result.tip.value_or(base.commit);
  auto existing = context.store().branch_tip(branch);
  if (existing && !git_oid_equal(&*existing, &tip) && !vm.count("replace")) {
    throw usage_error("branch " + branch + " already exists at " + git::to_hex(*existing) +
                      ", not at this result " + git::to_hex(tip) +
                      " (a different base or series?): pass --branch NAME or --replace");
  }
  // Conditional on what was seen above: a run racing on the same branch
  // fails here (exit 2) instead of silently overwriting the other's.
  context.store().set_branch(branch, tip, existing,
                             "kseries apply " + intake.top().source.string());
  return branch;
}

// The text report: one line per patch, the failure's detail, the branch.
std::string render_summary(const Series& top, const git::ApplyResult& result, const Base& base,
                           const std::string& created, const fs::path& store_path,
                           const fs::path& run_dir) {
  std::ostringstream summary;
  summary << "series " << top.name << " [" << revision_identity(top).label() << "] from "
          << top.source.string() << "\n";
  for (const auto& outcome : result.outcomes) {
    const char* status = outcome.status == git::PatchStatus::k_applied  ? "applied"
                         : outcome.status == git::PatchStatus::k_failed ? "FAILED"
                                                                        : "skipped";
    summary << status << " " << outcome.series_name << " " << (outcome.index + 1) << "/"
            << outcome.total << " "
            << (outcome.status == git::PatchStatus::k_applied
                    ? git::to_hex(outcome.commit).substr(0, 12) + " "
                    : std::string())
            << outcome.subject << "\n";
    if (outcome.status == git::PatchStatus::k_failed) {
      summary << "  " << outcome.label << " does not apply onto " << base.label << "\n";
      std::istringstream detail(outcome.failure);
      for (std::string line; std::getline(detail, line);) {
        summary << "  " << line << "\n";
      }
      for (const auto& warning : result.warnings) {
        summary << "  note: " << warning << "\n";
      }
    }
  }
  if (!created.empty()) {
    summary << "branch " << created << " " << git::to_hex(result.tip.value_or(base.commit))
            << " in " << store_path.string() << "\n";
  } else {
    summary << "no branch created: the series did not apply completely\n";
  }
  summary << "run directory " << run_dir.string() << "\n";
  return summary.str();
}

}  // namespace

int run_apply(Context& context, const std::vector<std::string>& args) {
  po::options_description options = apply_options();
  po::variables_map vm;
  if (!parse_command_line("apply", "--series DIR|MBOX [options]", args, options, vm, context)) {
    return 0;
  }
  // Intake: parse and validate everything before touching any repository.
  const SeriesInput input = resolve_series_input(context, vm, vm["series"].as<std::string>());
  const Intake intake = read_intake(vm, input.path);
  // Base: the imported tarball or a borrowed commit of the user's repository
  // (a range's bottom, a b4 branch's or fetched series' base by default).
  const Base base = resolve_base_for(context, vm, input.base);
  const fs::path run_dir = context.workdir().new_run("apply");
  // Apply: in memory; no ref moves yet.
  const auto result = apply_in_memory(context, intake, base, vm);
  // Branch: only for what applied.
  const std::string created = create_branch(context, intake, result, base, vm);
  // Report: text to stdout and the run directory, JUnit.
  const std::string summary =
      render_summary(intake.top(), result, base, created, context.store().path(), run_dir);
  text_report_stream(vm) << printable_text(summary);
  write_new_file(run_dir / "apply.txt", summary);
  const std::vector<report::TestSuite> suites = {junit_suite(intake.chain, result, base, created)};
  report::write_junit(run_dir / "junit.xml", suites);
  if (vm.count("junit")) {
    report::write_junit(vm["junit"].as<std::string>(), suites);
  }
  return result.complete ? 0 : static_cast<int>(ExitCode::k_check_failed);
}

}  // namespace kseries::cli
