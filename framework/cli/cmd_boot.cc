// kseries boot: a thin driver over the run layer (framework/run): boot
// kernels built by `kseries build` in QEMU with emulated pmem, run a
// testcase in the guest, triage, judge, and (with --compare-base) compare
// the series against the base from interleaved boots.
#include <algorithm>
#include <iostream>
#include <thread>

#include "cases/case_def.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_reports.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/utf8.h"
#include "kernel/kernel_build.h"
#include "qemu/vm.h"
#include "report/junit.h"
#include "report/output.h"
#include "results/session_record.h"
#include "series/series_chain.h"
#include "session/case_plan.h"
#include "session/kernel_plan.h"
#include "session/new_path.h"
#include "session/session_runner.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

// REPORT's text and JUnit, and RESULTS: its results.json (one session's
// record, or one per clock).
void write_reports(const po::variables_map& vm, const fs::path& run_dir,
                   const session::SessionReport& report, const nlohmann::json& results) {
  text_report_stream(vm) << printable_text(report.text);
  write_new_file(run_dir / "boot.txt", report.text);
  const std::string json = json_text(results);
  write_new_file(run_dir / "results.json", json);
  report::write_junit(run_dir / "junit.xml", {report.suite});
  if (vm.count("junit")) {
    report::write_junit(vm["junit"].as<std::string>(), {report.suite});
  }
  if (vm.count("json")) {
    report::write_report(vm["json"].as<std::string>(), json);
  }
  write_run_reports(run_dir, vm);
}

// The kernels of the session, by role: the baseline (base, or --against's
// revision), the candidate series, or the base again as an A/A control.
std::vector<session::KernelUnderTest> plan_kernels(Context& context, const po::variables_map& vm,
                                                   const session::Oracle* oracle) {
  std::optional<SeriesInput> candidate;
  if (vm.count("series")) {
    candidate = resolve_series_input(context, vm, vm["series"].as<std::string>());
  }
  const Base base = resolve_base_for(context, vm, candidate ? candidate->base : std::nullopt);
  const bool series = vm.count("series") > 0;
  const bool compare = vm.count("compare-base") > 0;
  const bool against = vm.count("against") > 0;
  if (against && (!series || !compare || oracle)) {
    throw usage_error("--against needs --series and --compare-base, and a timing case");
  }
  // Who boots beside whom is session/kernel_plan.h's; here only which commits.
  const session::Pairing pairing{.oracle = oracle,
                                 .series = series,
                                 .judge_timing = compare,
                                 .baseline_asked = compare,
                                 .against = against};
  std::vector<session::KernelUnderTest> kernels;
  auto add_series = [&](session::KernelRole role, const fs::path& dir,
                        std::optional<std::size_t> upto) {
    const auto chain = load_series_chain(dir);
    const auto applied = apply_series_or_fail(context, base, chain, upto);
    kernels.push_back({.role = role, .name = chain.back()->name, .commit = *applied.tip});
  };
  for (const session::KernelRole role : session::session_roles(pairing)) {
    switch (role) {
      case session::KernelRole::k_reference:
        add_series(role, resolve_series_input(context, vm, vm["against"].as<std::string>()).path,
                   std::nullopt);
        break;
      case session::KernelRole::k_base:
        kernels.push_back({.role = role, .name = "base", .commit = base.commit});
        break;
      case session::KernelRole::k_control:
        kernels.push_back({.role = role, .name = "base-again", .commit = base.commit});
        break;
      case session::KernelRole::k_candidate: {
        std::optional<std::size_t> upto;
        if (vm.count("upto")) {
          upto = vm["upto"].as<std::size_t>();
        }
        add_series(role, candidate->path, upto);
        break;
      }
    }
  }
  return kernels;
}

// The session(s) of one `kseries boot`, and their reports written. With
// --clock both, the same request under each clock, one after the other
// (icount figures do not depend on what runs beside them), each in its own
// directory of the run, one report with both.
// The case's path entries a whole series changes against the base: whether
// it claims a new path there (session/new_path.h). A prefix (--upto) or a
// comparison with another revision (--against) claims nothing.
std::optional<std::vector<std::string>> whole_series_changes(
    Context& context, const std::vector<session::KernelUnderTest>& kernels,
    const cases::CaseDef& test_case, const po::variables_map& vm) {
  if (vm.count("upto") || vm.count("against")) {
    return std::nullopt;
  }
  const auto base = std::find_if(kernels.begin(), kernels.end(), [](const auto& k) {
    return k.role == session::KernelRole::k_base;
  });
  const auto candidate = std::find_if(kernels.begin(), kernels.end(), [](const auto& k) {
    return k.role == session::KernelRole::k_candidate;
  });
  if (base == kernels.end() || candidate == kernels.end()) {
    return std::nullopt;
  }
  return session::changed_path(context.store(), base->commit, candidate->commit, test_case.path);
}

int run_sessions(const po::variables_map& vm, session::SessionRequest request,
                 session::Services& services, session::Status& status) {
  const bool both = request.clock == "both";
  const fs::path run_dir = request.run_dir;
  session::SessionReport all;
  nlohmann::json by_clock = nlohmann::json::object();
  for (const std::string& clock : both ? std::vector<std::string>{"icount", "wall"}
                                       : std::vector<std::string>{request.clock}) {
    session::SessionRequest one = request;
    one.clock = clock;
    if (both) {
      one.run_dir = run_dir / clock;
      fs::create_directories(one.run_dir);
      status.progress("clock " + clock + ": a session of its own");
    }
    auto outcome = session::run_session(std::move(one), services, status);
    if (outcome.end == session::SessionEnd::k_not_built) {
      throw check_failure(outcome.why);
    }
    auto& report = outcome.report;
    report.suite.name = "kseries boot " + vm["target"].as<std::string>() + " " +
                        vm["case"].as<std::string>() + (both ? " (" + clock + ")" : "");
    report.suite.timestamp = report::utc_timestamp();
    if (!both) {
      write_reports(vm, run_dir, report, results::to_json(report.record));
      return report.failed ? static_cast<int>(ExitCode::k_check_failed) : 0;
    }
    all.text += "== clock " + clock + "\n" + report.text;
    by_clock[clock] = results::to_json(report.record);
    all.failed = all.failed || report.failed;
    all.suite.cases.insert(all.suite.cases.end(), report.suite.cases.begin(),
                           report.suite.cases.end());
    all.suite.properties = report.suite.properties;
  }
  all.suite.name = "kseries boot " + vm["target"].as<std::string>() + " " +
                   vm["case"].as<std::string>() + " (icount and wall)";
  all.suite.properties.emplace_back("clocks", "icount wall");
  all.suite.timestamp = report::utc_timestamp();
  write_reports(vm, run_dir, all, by_clock);
  return all.failed ? static_cast<int>(ExitCode::k_check_failed) : 0;
}

// kseries boot's own options (the shared ones are added by run_boot).
po::options_description boot_options() {
  po::options_description options("kseries boot options");
  options.add_options()("target", po::value<std::string>()->default_value("pmem"),
                        "kernel target (built with kseries build if needed)")(
      "case", po::value<std::string>()->default_value("memmap-timing"), "testcase to run")(
      "series", po::value<std::string>(), "boot the kernel with this series applied")(
      "upto", po::value<std::size_t>(), "only the first K patches of the series")(
      "compare-base",
      "also boot the base kernel, interleaved, and compare; without --series: base against "
      "base (an A/A control that also estimates the smallest detectable change)")(
      "against", po::value<std::string>(),
      "with --series and --compare-base: compare against this series (e.g. the previous "
      "revision) instead of the base")(
      "boots", po::value<int>()->default_value(1),
      "boots per kernel (under the icount clock, when not given: 1, and a second pair only "
      "when a verdict is unknown)")("rebinds", po::value<int>(),
                                    "rebinds per setup, for a case that takes them (its "
                                    "case.conf's `rebinds: N` is the default)")(
      "setups", po::value<std::string>(),
      "comma-separated setups (default fsdax-mem,fsdax-dev,devdax-mem,devdax-dev)")(
      "args", po::value<std::string>(), "extra comma-separated key=value arguments for the case")(
      "pmem", po::value<std::string>()->default_value("legacy"),
      "pmem topology: legacy (memmap=SIZE!OFFSET) or nvdimm (QEMU vNVDIMM)")(
      "size", po::value<std::string>()->default_value("2G"),
      "pmem size (default: the target's pmem-size:, else 2G)")(
      "accel", po::value<std::string>()->default_value("auto"), "auto, kvm or tcg")(
      "clock", po::value<std::string>()->default_value("auto"),
      "what times are measured in: icount (virtual ns = guest instructions, TCG only; "
      "deterministic), memory (icount plus the memcost plugin: each memmap_init_zone_device() "
      "call costed in a model of one core's caches and DRAM, unit mns), wall, both (icount "
      "and wall, a session under each), or auto (icount under TCG, wall under KVM)")(
      "timeout", po::value<int>(), "seconds per boot (default: the case's)")(
      "configs", po::value<std::string>(), "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(), "testcases directory (default: the bundled one)")(
      "jobs,j", po::value<std::size_t>()->default_value(std::thread::hardware_concurrency()),
      "make -j when a kernel must be built")(
      "no-cover",
      "on a coverage target, boot without the plugin's cover mode (no ROLE-N.cover: "
      "what the cover mode costs, side by side)")(
      "keep-bulk",
      "keep each boot's bulk disk (<boot>.bulk.img, 256 MiB sparse) in the run "
      "directory after its dumps are read (debugging)")(
      "junit", po::value<std::string>(), "also write the JUnit XML report here ('-': stdout)")(
      "json", po::value<std::string>(), "also write the JSON results here ('-': stdout)");
  add_boot_reuse_options(options);
  add_memory_clock_options(options);
  add_run_report_options(options);
  options.add(base_options());
  options.add(series_input_options());
  return options;
}

// The session the command line asks for: the target, the case and its
// options, the kernels by role (applied only when something will boot).
session::SessionRequest boot_request(Context& context, const po::variables_map& vm) {
  const std::string pmem = checked_pmem(vm["pmem"].as<std::string>());
  if (vm["boots"].as<int>() < 1) {
    throw usage_error("--boots must be at least 1");
  }
  session::SessionRequest request;
  request.accel = parse_accel(vm["accel"].as<std::string>());
  request.clock = checked_clock(vm["clock"].as<std::string>(), ClockBoth::k_allowed);
  request.memory = memory_clock_settings(vm, request.clock);
  request.testcases = testcases_dir(vm);
  request.target = kernel::load_target(configs_dir(vm), vm["target"].as<std::string>());
  request.test_case = cases::load_case(request.testcases, vm["case"].as<std::string>());
  const session::Oracle* oracle = session::find_oracle(request.test_case.oracle);
  if (oracle && oracle->name() == "memmap-vs-base" && !vm.count("series")) {
    throw usage_error("case " + request.test_case.name +
                      " compares a series kernel with the base: give --series DIR");
  }
  if (vm.count("setups")) {
    request.case_options.setups = session::split_list(vm["setups"].as<std::string>());
  }
  if (vm.count("rebinds")) {
    request.case_options.rebinds = vm["rebinds"].as<int>();
  }
  request.case_options.extra_args = vm.count("args") ? vm["args"].as<std::string>() : "";
  request.boots = vm["boots"].as<int>();
  request.boots_given = !vm["boots"].defaulted();
  request.pmem = pmem;
  request.pmem_size = vm["size"].as<std::string>();
  request.pmem_size_given = !vm["size"].defaulted();
  if (vm.count("timeout")) {
    request.timeout = std::chrono::seconds(vm["timeout"].as<int>());
  }
  request.run_dir = context.workdir().new_run("boot");
  request.keep_bulk = vm.count("keep-bulk") > 0;
  request.cover = vm.count("no-cover") == 0;
  request.reuse_baseline_boots = vm.count("reuse-base-boots") > 0;
  request.reuse_every_boot = vm.count("reuse-boots") > 0;
  // A case skipped on this target builds nothing: the kernels are only
  // applied (cheap) when something will boot.
  const auto plan = session::plan_case(request.target, request.test_case, request.case_options);
  if (!plan.skipped && !plan.nothing_to_boot()) {
    request.kernels = plan_kernels(context, vm, oracle);
    request.candidate_changes =
        whole_series_changes(context, request.kernels, request.test_case, vm);
  }

  return request;
}

}  // namespace

int run_boot(Context& context, const std::vector<std::string>& args) {
  po::options_description options = boot_options();
  po::variables_map vm;
  if (!parse_command_line("boot", "[--target T] [--series DIR [--compare-base]] [--case NAME]",
                          args, options, vm, context)) {
    return 0;
  }
  auto request = boot_request(context, vm);
  // The session: build, boot, judge, render.
  kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(),
                                std::max<std::size_t>(1, vm["jobs"].as<std::size_t>()));
  session::Services services{builder, context.runner(), context.workdir().root()};
  StderrStatus status;
  return run_sessions(vm, std::move(request), services, status);
}

}  // namespace kseries::cli
