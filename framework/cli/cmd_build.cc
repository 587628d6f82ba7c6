// kseries build: a kernel for a target, at the base or at a series (each
// patch with --per-patch), out of tree and cached.
#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/utf8.h"
#include "gate/per_patch.h"
#include "git/apply.h"
#include "kernel/kernel_build.h"
#include "kernel/kernel_clean.h"
#include "kernel/kernel_verify.h"
#include "kseries_source_dir.h"
#include "report/junit.h"
#include "series/diff_safety.h"
#include "series/series_chain.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

using Step = gate::BuildStep;

// The last patch (up to `upto`, 1-based) of the top series whose diff touches
// `file`, as "patch 3/8 'subject'", or "".
std::string last_toucher(const Series& series, std::size_t upto, const std::string& file) {
  for (std::size_t i = std::min(upto, series.patches.size()); i > 0; --i) {
    for (const auto& touched : diff_files(series.patches[i - 1].diff)) {
      if (touched.new_path == file || touched.old_path == file) {
        return "patch " + std::to_string(i) + "/" + std::to_string(series.patches.size()) + " '" +
               series.patches[i - 1].subject.title + "'";
      }
    }
  }
  return "";
}

const char* status_word(kernel::StepStatus status) {
  switch (status) {
    case kernel::StepStatus::k_built:
      return "built";
    case kernel::StepStatus::k_cached:
      return "cached";
    case kernel::StepStatus::k_build_failed:
      return "FAILED";
    case kernel::StepStatus::k_not_constructible:
      return "NOT-CONSTRUCTIBLE";
    case kernel::StepStatus::k_configured:
      return "configured";
  }
  return "?";
}

// A built (or cached) kernel: where it is, its test modules, its warnings
// and those new versus the base build of the same target.
void describe_kernel(const kernel::KernelBuild& kernel, const Step& step,
                     const std::optional<kernel::KernelBuild>& base_kernel,
                     std::ostringstream& summary, report::TestCase& test) {
  summary << "  kernel " << kernel.image.string() << "\n";
  for (const auto& [module, ko] : kernel.modules) {
    summary << "  test module " << module << ": " << ko.string() << "\n";
  }
  for (const auto& [module, why] : kernel.module_errors) {
    summary << "  test module " << module << " does not build: " << why.substr(0, why.find('\n'))
            << "\n";
  }
  test.properties = {{"kernel", kernel.key},
                     {"bzImage", kernel.image.string()},
                     {"compiler", kernel.compiler},
                     {"warnings", std::to_string(kernel.warnings.size())},
                     {"cached", kernel.cached ? "yes" : "no"}};
  if (!base_kernel || step.patch == 0) {
    summary << "  warnings: " << kernel.warnings.size() << "\n";
    return;
  }
  const auto added = gate::added_warnings(base_kernel->warnings, kernel.warnings);
  summary << "  warnings: " << kernel.warnings.size() << " (base " << base_kernel->warnings.size()
          << "), new versus the base: " << added.size() << "\n";
  for (const auto& warning : added) {
    summary << "    new warning: " << warning << "\n";
  }
  test.properties.emplace_back("new_warnings", std::to_string(added.size()));
}

// A step that does not build: its first errors, each with the patch that
// last touched the file, and make's failure lines.
void describe_build_failure(const kernel::StepResult& result, const Step& step, const Series* top,
                            const fs::path& log, std::ostringstream& summary,
                            report::TestCase& test) {
  test.status = report::CaseStatus::k_failed;
  test.message = "does not build: " + step.label + " '" + step.subject + "'";
  if (!result.errors.empty() && !result.errors.front().file.empty()) {
    // Where it broke says more than the patch: the first error's source.
    test.file = result.errors.front().file;
    test.line = result.errors.front().line;
  }
  std::size_t shown = 0;
  for (const auto& error : result.errors) {
    if (++shown > 10) {
      break;
    }
    std::string line = error.file + ":" + std::to_string(error.line) + ": " + error.message;
    if (top) {
      const std::string who = last_toucher(*top, step.patch, error.file);
      line +=
          who.empty() ? " (a file the series does not touch)" : " (last touched by " + who + ")";
    }
    summary << "  error: " << line << "\n";
    test.detail += line + "\n";
  }
  for (const auto& failure : result.make_failures) {
    summary << "  " << failure << "\n";
    test.detail += failure + "\n";
  }
  summary << "  log " << log.string() << "\n";
}

// One step's summary lines and JUnit testcase; failed when it did not build
// or the target is not constructible.
report::TestCase describe_step(const Step& step, const kernel::StepResult& result,
                               const std::string& target,
                               const std::optional<kernel::KernelBuild>& base_kernel,
                               const Series* top, const fs::path& log,
                               std::ostringstream& summary) {
  report::TestCase test;
  test.classname = "build." + target;
  // A stable identity for CI history: the base's label (a path, a revision)
  // and every commit id go to the properties.
  test.name = step.patch == 0 ? step.label : step.label + " " + step.subject;
  test.seconds = result.seconds;
  if (top && step.patch > 0 && step.patch <= top->patches.size()) {
    test.file = report::path_for_report(top->patches[step.patch - 1].file);
  }
  summary << status_word(result.status) << " " << target << " @ " << step.label << " "
          << git::to_hex(step.commit).substr(0, 12) << " " << step.subject << " ("
          << static_cast<int>(result.seconds) << " s, " << result.compiled
          << " objects compiled)\n";
  if (result.kernel) {
    describe_kernel(*result.kernel, step, base_kernel, summary, test);
  } else if (result.status == kernel::StepStatus::k_configured) {
    summary << "  every requested symbol kept its value; .config: " << result.config.string()
            << "\n";
    test.properties = {{"config", result.config.string()}};
  } else if (result.status == kernel::StepStatus::k_not_constructible) {
    test.status = report::CaseStatus::k_failed;
    test.message = "target " + target + " is not constructible: olddefconfig dropped " +
                   std::to_string(result.dropped.size()) + " requested symbol(s)";
    for (const auto& line : result.dropped) {
      summary << "  dropped: " << line << "\n";
      test.detail += line + "\n";
    }
  } else {
    describe_build_failure(result, step, top, log, summary, test);
  }
  test.properties.insert(test.properties.begin(), {"commit", git::to_hex(step.commit)});
  if (step.patch == 0) {
    test.properties.insert(test.properties.begin() + 1, {"base_label", step.subject});
  }
  return test;
}

}  // namespace

fs::path configs_dir(const po::variables_map& vm) {
  if (vm.count("configs")) {
    return vm["configs"].as<std::string>();
  }
  return fs::path(KSERIES_SOURCE_DIR) / "kernel-configs";
}

fs::path testcases_dir(const po::variables_map& vm) {
  if (vm.count("testcases")) {
    return vm["testcases"].as<std::string>();
  }
  return fs::path(KSERIES_SOURCE_DIR) / "testcases";
}

std::vector<fs::path> test_module_dirs(const fs::path& testcases) {
  std::vector<fs::path> dirs;
  if (fs::is_directory(testcases)) {
    for (const auto& entry : fs::directory_iterator(testcases)) {
      if (fs::exists(entry.path() / "Kbuild")) {
        dirs.push_back(entry.path());
      }
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

po::options_description build_options() {
  po::options_description options("kseries build options");
  options.add_options()("target", po::value<std::string>()->default_value("pmem"),
                        "kernel target (kernel-configs/targets/<name>.target)")(
      "series", po::value<std::string>(), "build the base with this series applied")(
      "upto", po::value<std::size_t>(), "only the first K patches of the series")(
      "per-patch", "build after every patch of the series (bisectability)")(
      "configure-only",
      "stop after the .config is resolved and every requested symbol is verified (no make)")(
      "clean", po::value<std::string>()->implicit_value("all"),
      "first forget the target's cached kernels of the commits to build and its build "
      "directory, so the make is clean; --clean=kernels: the kernels only, so the make is "
      "incremental (what ci/bench measures)")(
      "configs", po::value<std::string>(), "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(),
      "testcases directory whose test modules (<case>/Kbuild) are built against each kernel "
      "(default: the bundled one)")(
      "verify",
      "build nothing: check every kernel stored in the work directory (of --target when it "
      "is given, else of every target) against the store: the sources it was built from, "
      "its artifacts' digests, its key, and the indexes that point at it; exit 1 when one "
      "fails")("jobs,j",
               po::value<std::size_t>()->default_value(std::thread::hardware_concurrency()),
               "make -j")("junit", po::value<std::string>(),
                          "also write the JUnit XML report here ('-': stdout)");
  options.add(base_options());
  options.add(series_input_options());
  return options;
}

// The commits to build: the base alone, the tip of the first UPTO patches,
// or (--per-patch) every one of them.
std::vector<Step> steps_to_build(Context& context, const po::variables_map& vm, const Base& base,
                                 const std::vector<std::unique_ptr<Series>>& chain) {
  std::vector<Step> steps;
  const Series* top = chain.empty() ? nullptr : chain.back().get();
  std::size_t upto = top ? top->patches.size() : 0;
  if (top && vm.count("upto")) {
    upto = std::min(upto, vm["upto"].as<std::size_t>());
  }
  if (!top) {
    steps.push_back({"base", base.label, base.commit, 0});
    return steps;
  }
  const auto applied = apply_series_or_fail(context, base, chain, upto);
  const std::size_t first_top = applied.outcomes.size() - upto;
  for (std::size_t i = first_top; i < applied.outcomes.size(); ++i) {
    const auto& outcome = applied.outcomes[i];
    const bool last = i + 1 == applied.outcomes.size();
    if (vm.count("per-patch") || last) {
      steps.push_back({top->name + " " + std::to_string(outcome.index + 1) + "/" +
                           std::to_string(outcome.total),
                       outcome.subject, outcome.commit, outcome.index + 1});
    }
  }
  return steps;
}

// --clean: nothing of TARGET's cache answers for these commits.
void clean_steps(Context& context, const kernel::Target& target, const std::vector<Step>& steps,
                 kernel::CleanScope scope) {
  std::vector<std::string> trees;
  for (const auto& step : steps) {
    trees.push_back(git::to_hex(*git_tree_id(context.store().commit_tree(step.commit).get())));
  }
  const auto cleaned =
      kernel::clean_kernel_cache(context.workdir().root(), target.name, trees, scope);
  progress("clean: " + std::to_string(cleaned.kernels.size()) + " cached kernel(s) of " +
           target.name + " removed" + (cleaned.build_dir ? ", and its build directory" : ""));
}

// --verify: every stored kernel (of TARGET, or all), one line each.
int verify_kernels(Context& context, const std::string& target) {
  const auto kernels =
      kernel::verify_stored_kernels(context.store(), context.workdir().root(), target);
  std::size_t bad = 0;
  for (const auto& k : kernels) {
    const std::string what = k.key.substr(0, 12) + " " + (k.target.empty() ? "?" : k.target) +
                             " @ " + (k.commit.empty() ? "?" : k.commit.substr(0, 12));
    if (k.problems.empty()) {
      std::cout << "ok " << what << ": " << k.facts << ", artifacts as recorded\n";
      continue;
    }
    ++bad;
    std::cout << "FAIL " << what << ": " << printable_text(k.problems.front()) << "\n";
    for (std::size_t i = 1; i < k.problems.size(); ++i) {
      std::cout << "  " << printable_text(k.problems[i]) << "\n";
    }
  }
  std::cout << "verified " << kernels.size() << " stored kernel(s)"
            << (target.empty() ? "" : " of target " + target) << ": "
            << (bad ? std::to_string(bad) + " failed" : std::string("all proven")) << "\n";
  return bad ? 1 : 0;
}

int run_build(Context& context, const std::vector<std::string>& args) {
  po::options_description options = build_options();
  po::variables_map vm;
  if (!parse_command_line("build", "[--target NAME] [--series DIR] [--per-patch] [options]", args,
                          options, vm, context)) {
    return 0;
  }
  if (vm.count("verify")) {
    if (vm.count("series") || vm.count("clean") || vm.count("per-patch")) {
      throw usage_error("--verify builds nothing: no --series, --clean or --per-patch with it");
    }
    return verify_kernels(context, vm["target"].defaulted() ? "" : vm["target"].as<std::string>());
  }
  // Phase 1, inputs: target and series are checked before any work.
  const auto target = kernel::load_target(configs_dir(vm), vm["target"].as<std::string>());
  std::optional<kernel::CleanScope> clean;
  if (vm.count("clean")) {
    const std::string scope = vm["clean"].as<std::string>();
    if (scope != "all" && scope != "kernels") {
      throw usage_error("--clean=" + scope + ": 'all' (the default) or 'kernels'");
    }
    clean = scope == "all" ? kernel::CleanScope::k_kernels_and_build_dir
                           : kernel::CleanScope::k_kernels;
  }
  std::vector<std::unique_ptr<Series>> chain;
  std::optional<std::string> series_base;
  if (vm.count("series")) {
    const SeriesInput input = resolve_series_input(context, vm, vm["series"].as<std::string>());
    series_base = input.base;
    chain = load_series_chain(input.path);
  } else if (vm.count("upto") || vm.count("per-patch")) {
    throw usage_error("--upto and --per-patch need --series");
  }
  const Base base = resolve_base_for(context, vm, series_base);
  const fs::path run_dir = context.workdir().new_run("build");

  // Phase 2, apply: the commits to build.
  const std::vector<Step> steps = steps_to_build(context, vm, base, chain);
  const Series* top = chain.empty() ? nullptr : chain.back().get();

  if (clean) {
    clean_steps(context, target, steps, *clean);
  }

  // Phase 3, build each step; incremental in the target's build directory.
  kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(),
                                std::max<std::size_t>(1, vm["jobs"].as<std::size_t>()));
  const auto module_dirs = test_module_dirs(testcases_dir(vm));
  const auto base_kernel = builder.find(target, base.commit);
  std::ostringstream summary;
  report::TestSuite suite;
  suite.name = "kseries build " + target.name;
  suite.timestamp = report::utc_timestamp();
  suite.properties = {
      {"target", target.name}, {"base", git::to_hex(base.commit)}, {"base_label", base.label}};
  std::optional<std::size_t> first_broken;
  bool failed = false;
  const auto log = [&](std::size_t s) {
    return run_dir / ("build-" + target.name + "-" + std::to_string(s + 1) + ".log");
  };
  const auto tag = [&](std::size_t s) { return target.name + " @ " + steps[s].label; };
  gate::BuildStepsOptions step_options;
  step_options.log = log;
  step_options.last_step_modules = module_dirs;
  step_options.configure_only = vm.count("configure-only") > 0;
  step_options.starting = [&](std::size_t s) {
    progress("build " + tag(s) + " (" + git::to_hex(steps[s].commit).substr(0, 12) + " " +
             steps[s].subject + ")");
  };
  step_options.progress = [&](std::size_t s, const std::string& text) {
    progress(tag(s) + ": " + text);
  };
  const auto results = gate::build_steps(target, steps, step_options, builder);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const auto& result = results[s];
    auto test = describe_step(steps[s], result, target.name, base_kernel, top, log(s), summary);
    if (test.status == report::CaseStatus::k_failed) {
      failed = true;
      if (!first_broken && steps[s].patch > 0 && !result.kernel &&
          result.status != kernel::StepStatus::k_not_constructible) {
        first_broken = s;
      }
    }
    suite.cases.push_back(std::move(test));
  }
  if (first_broken) {
    summary << "first patch that does not build: " << steps[*first_broken].label << " '"
            << steps[*first_broken].subject << "'\n";
  }
  summary << "run directory " << run_dir.string() << "\n";
  text_report_stream(vm) << printable_text(summary.str());
  write_new_file(run_dir / "build.txt", summary.str());
  report::write_junit(run_dir / "junit.xml", {suite});
  if (vm.count("junit")) {
    report::write_junit(vm["junit"].as<std::string>(), {suite});
  }
  return failed ? static_cast<int>(ExitCode::k_check_failed) : 0;
}

}  // namespace kseries::cli
