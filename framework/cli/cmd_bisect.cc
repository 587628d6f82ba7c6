// kseries bisect: a thin driver over bisect/bisect_runner.h (the algorithm is
// bisect/bisect.h). Finds the first patch of a series at which a check fails
// (apply, build, boot, the case with its oracle, or a timing regression
// against the last good prefix or a good revision) by testing series prefixes, each step decided
// from repeated runs; names the culprit on one greppable line.
#include <iostream>
#include <thread>

#include "bisect/bisect_report.h"
#include "bisect/bisect_runner.h"
#include "cases/case_def.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/utf8.h"
#include "kernel/kernel_build.h"
#include "qemu/vm.h"
#include "report/junit.h"
#include "report/output.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_synopsis =
    "--series DIR|MBOX --target T --case C [--check apply|build|boot|case|timing]\n"
    "       [--setups a,b] [--metric NAME [--threshold PCT] [--against DIR|MBOX|base]] [--runs N]\n"
    "       [--junit F] [--json F]\n"
    "\n"
    "Finds the first patch at which the check fails by testing series prefixes (prefix k:\n"
    "the base with the first k patches), halving the range as git bisect does. The tip is\n"
    "checked first; a step is decided from repeated runs (boot, case: bad at max(2, runs/6)\n"
    "failures). The culprit's prefix and the one before it are decided once more, and the\n"
    "culprit is named only when the confidence reaches --confidence. With --check build a\n"
    "tip that builds does not end the search: a break a later patch fixes is looked for\n"
    "prefix by prefix.\n"
    "\n"
    "Timing (--metric) asks whether a prefix regressed against the last known-good state,\n"
    "booting the two side by side and booting again while the verdict is unknown:\n"
    "  default          against the last prefix judged good (the base at first): the culprit\n"
    "                   is a patch that alone makes the metric slower by --threshold than\n"
    "                   the prefix before it; a slowdown made of smaller steps is inconclusive.\n"
    "  --against DIR    against the same prefix of a good revision of the series (e.g. v6\n"
    "                   when bisecting v7; a prefix past its end against its tip): the first\n"
    "                   patch at which this revision is slower than the good one. Prefixes\n"
    "                   identical to the good revision's (shared patches) are good unbooted.\n"
    "                   Use it when the series pays for a refactor early and wins it back\n"
    "                   later: against the prefix before, the refactor is a real step.\n"
    "  --against base   against the unpatched base: the first prefix slower than the base.\n"
    "\n"
    "Prints `culprit: K/N <subject> (<author>)` on stdout, the evidence per step, and writes\n"
    "bisect.txt, bisect.json and junit.xml in the run directory.\n"
    "\n"
    "Exit status (as git bisect run): 0 a culprit was named; 1 no culprit: the tip passes\n"
    "(nothing to bisect) or the bisection is inconclusive; 2 usage or infrastructure error.";

// The check: --check, else timing with --metric, else the case.
bisect::BisectCheck check_of(const po::variables_map& vm) {
  if (vm.count("check")) {
    const auto check = bisect::parse_bisect_check(vm["check"].as<std::string>());
    if (!check) {
      throw usage_error("--check must be apply, build, boot, case or timing, not '" +
                        vm["check"].as<std::string>() + "'");
    }
    return *check;
  }
  return vm.count("metric") ? bisect::BisectCheck::k_timing : bisect::BisectCheck::k_case;
}

void write_reports(const po::variables_map& vm, const fs::path& run_dir,
                   const bisect::BisectOutcome& outcome, const bisect::BisectFacts& facts,
                   bool final) {
  const std::string json = bisect::bisect_json(outcome, facts).dump(2) + "\n";
  write_file(run_dir / "bisect.json", json);
  if (!final) {
    return;
  }
  const std::string text =
      bisect::render_bisect_text(outcome, facts) + "run directory " + run_dir.string() + "\n";
  std::cout << printable_text(text);
  write_new_file(run_dir / "bisect.txt", printable_text(text));
  const auto suite = bisect::bisect_junit(outcome, facts);
  report::write_junit(run_dir / "junit.xml", {suite});
  if (vm.count("junit")) {
    report::write_junit(vm["junit"].as<std::string>(), {suite});
  }
  if (vm.count("json")) {
    report::write_report(vm["json"].as<std::string>(), json);  // replaced whole, never cut short
  }
}

po::options_description bisect_options() {
  po::options_description options("kseries bisect options");
  options.add_options()("series", po::value<std::string>(), "the series (directory or mbox)")(
      "target", po::value<std::string>()->default_value("pmem"), "kernel target")(
      "case", po::value<std::string>(), "testcase (every check but apply and build)")(
      "check", po::value<std::string>(),
      "apply, build, boot (boots cleanly), case (boot, guest results, oracle) or timing "
      "(default: timing with --metric, else case)")("setups", po::value<std::string>(),
                                                    "comma-separated setups of the case")(
      "metric", po::value<std::string>(),
      "timing: the metric that must not get slower (e.g. memmap_init_vns; "
      "memmap_init_ns names the same under either clock)")(
      "threshold", po::value<double>()->default_value(0),
      "timing: a slowdown (a 'slower' verdict) counts only from this many percent")(
      "runs", po::value<int>()->default_value(3),
      "boot and case: runs per step at most (bad at max(2, runs/6) failures)")(
      "timing-runs", po::value<int>()->default_value(3),
      "timing: session pairs per step while the verdict stays unknown")(
      "confidence", po::value<double>()->default_value(0.66),
      "name a culprit only at this confidence or above")(
      "rebinds", po::value<int>(),
      "rebinds per setup, for a case that takes them (default: its case.conf's `rebinds:`)")(
      "args", po::value<std::string>(), "extra comma-separated key=value arguments for the case")(
      "pmem", po::value<std::string>()->default_value("legacy"), "legacy or nvdimm")(
      "size", po::value<std::string>()->default_value("2G"),
      "pmem size (default: the target's pmem-size:, else 2G)")(
      "accel", po::value<std::string>()->default_value("auto"), "auto, kvm or tcg")(
      "clock", po::value<std::string>()->default_value("auto"),
      "auto, icount, memory (the memcost model, bundled icelake-sp profile) or wall")(
      "timeout", po::value<int>(), "seconds per boot (default: the case's)")(
      "configs", po::value<std::string>(), "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(), "testcases directory (default: the bundled one)")(
      "jobs,j", po::value<std::size_t>()->default_value(std::thread::hardware_concurrency()),
      "make -j")("junit", po::value<std::string>(), "also write the JUnit XML report here")(
      "json", po::value<std::string>(), "also write the JSON evidence here")(
      "against", po::value<std::string>(),
      "timing: compare prefix k with prefix k of this good revision (directory or mbox), or "
      "with the base ('base'); default: with the last prefix judged good");
  return options;
}

// --metric, --threshold and --against: what a timing step compares.
void timing_inputs(const po::variables_map& vm, bool timing, bisect::BisectRequest& request) {
  if (timing) {
    request.metric = vm["metric"].as<std::string>();
    request.threshold = vm["threshold"].as<double>() / 100;
    if (vm.count("against")) {
      const auto against = vm["against"].as<std::string>();
      if (against == "base") {
        request.policy.reference = bisect::TimingReference::k_base;
      } else {
        request.against = fs::absolute(against);
        if (!fs::exists(request.against)) {
          throw usage_error("--against: no series at " + against);
        }
        request.policy.reference = bisect::TimingReference::k_against;
      }
    }
  } else if (vm.count("against")) {
    throw usage_error("--against is for the timing check (--metric NAME)");
  }
}

// How each step boots: setups, rebinds, accelerator, clock, pmem, timeout.
void boot_inputs(const po::variables_map& vm, bisect::BisectRequest& request) {
  if (vm.count("setups")) {
    request.case_options.setups = session::split_list(vm["setups"].as<std::string>());
  }
  if (vm.count("rebinds")) {
    request.case_options.rebinds = vm["rebinds"].as<int>();
  }
  request.case_options.extra_args = vm.count("args") ? vm["args"].as<std::string>() : "";
  request.accel = parse_accel(vm["accel"].as<std::string>());
  request.clock = checked_clock(vm["clock"].as<std::string>());
  request.pmem = checked_pmem(vm["pmem"].as<std::string>());
  request.pmem_size = vm["size"].as<std::string>();
  request.pmem_size_given = !vm["size"].defaulted();
  if (vm.count("timeout")) {
    request.timeout = std::chrono::seconds(vm["timeout"].as<int>());
  }
}

}  // namespace

int run_bisect(Context& context, const std::vector<std::string>& args) {
  po::options_description options = bisect_options();
  options.add(base_options());
  options.add(series_input_options());
  po::variables_map vm;
  if (!parse_command_line("bisect", k_synopsis, args, options, vm, context)) {
    return 0;
  }

  // Inputs: the series, the check and what it needs, all before any work.
  if (!vm.count("series")) {
    throw usage_error("give the series to bisect: --series DIR|MBOX");
  }
  bisect::BisectRequest request;
  const SeriesInput input = resolve_series_input(context, vm, vm["series"].as<std::string>());
  request.series = fs::absolute(input.path);
  request.policy.check = check_of(vm);
  request.policy.runs = vm["runs"].as<int>();
  request.policy.timing_runs = vm["timing-runs"].as<int>();
  request.policy.threshold = vm["confidence"].as<double>();
  if (request.policy.runs < 1 || request.policy.timing_runs < 1) {
    throw usage_error("--runs and --timing-runs must be at least 1");
  }
  if (request.policy.threshold < 0 || request.policy.threshold > 1) {
    throw usage_error("--confidence must be between 0 and 1");
  }
  const bool timing = request.policy.check == bisect::BisectCheck::k_timing;
  if (timing != (vm.count("metric") > 0)) {
    throw usage_error(timing ? "the timing check needs --metric NAME"
                             : "--metric is for the timing check (--check timing)");
  }
  const bool needs_case = request.policy.check != bisect::BisectCheck::k_apply &&
                          request.policy.check != bisect::BisectCheck::k_build;
  if (needs_case && !vm.count("case")) {
    throw usage_error("the " + bisect::bisect_check_name(request.policy.check) +
                      " check needs --case NAME");
  }
  request.testcases = testcases_dir(vm);
  request.target = kernel::load_target(configs_dir(vm), vm["target"].as<std::string>());
  if (needs_case) {
    request.test_case = cases::load_case(request.testcases, vm["case"].as<std::string>());
  }
  timing_inputs(vm, timing, request);
  boot_inputs(vm, request);
  const Base base = resolve_base_for(context, vm, input.base);
  request.base = base.commit;
  request.base_label = base.label;
  request.run_dir = context.workdir().new_run("bisect");
  const bisect::BisectFacts facts{request.target.name, needs_case ? request.test_case->name : "",
                                  request.metric,      request.threshold,
                                  base.label,          request.run_dir.string()};

  // Bisect: the evidence is saved after every run, so an interrupted
  // bisection leaves what it had.
  kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(),
                                std::max<std::size_t>(1, vm["jobs"].as<std::size_t>()));
  bisect::BisectServices services{context.store(), builder, context.runner(),
                                  context.workdir().root(),
                                  [&](const bisect::BisectOutcome& so_far) {
                                    write_reports(vm, request.run_dir, so_far, facts, false);
                                  }};
  StderrStatus status;
  const auto outcome = bisect::run_bisect(request, services, status);

  // Report: the exit status follows git bisect run's meaning.
  write_reports(vm, request.run_dir, outcome, facts, true);
  return outcome.bisection.result().end == bisect::BisectEnd::k_culprit
             ? 0
             : static_cast<int>(ExitCode::k_check_failed);
}

}  // namespace kseries::cli
