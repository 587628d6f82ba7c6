// kseries gate: a thin driver over gate/gate.h. Each series revision through
// apply, checkpatch, per-patch builds and the matrix's cells; known-bad
// revisions judged by their expectations; one verdict, exit 0 when every
// good revision passes and every expectation holds.
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_reports.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/utf8.h"
#include "gate/expectations.h"
#include "gate/gate.h"
#include "kseries_version.h"
#include "report/gate_junit.h"
#include "report/junit.h"
#include "report/output.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

int run_gate(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries gate options");
  options.add_options()("series", po::value<std::vector<std::string>>()->composing(),
                        "a series revision (directory or mbox); repeat for several")(
      "matrix", po::value<std::string>()->default_value("default"),
      "a matrix NAME (kernel-configs/matrices/NAME.matrix) or a matrix FILE")(
      "resume", po::value<std::string>(),
      "an earlier gate's run directory: its finished cells are reused")(
      "accel", po::value<std::string>()->default_value("auto"), "auto, kvm or tcg")(
      "clock", po::value<std::string>()->default_value("auto"),
      "auto, icount, memory (icount plus the memcost plugin's model of caches and DRAM, for "
      "the timing cells) or wall")("configs", po::value<std::string>(),
                                   "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(), "testcases directory (default: the bundled one)")(
      "jobs,j", po::value<std::size_t>()->default_value(std::thread::hardware_concurrency()),
      "make -j")("junit", po::value<std::string>(),
                 "also write the JUnit XML report here ('-': stdout)")(
      "json", po::value<std::string>(), "also write the cells (JSON) here ('-': stdout)")(
      "shard", po::value<std::string>(),
      "I/N: only shard I of `kseries plan --shards N` (then `kseries merge` the N runs)");
  add_boot_reuse_options(options);
  add_memory_clock_options(options);
  add_run_report_options(options);
  options.add(base_options());
  options.add(series_input_options());
  po::variables_map vm;
  if (!parse_command_line("gate", "--series DIR [--series DIR ...] [--matrix NAME|FILE]", args,
                          options, vm, context)) {
    return 0;
  }
  if (!vm.count("series")) {
    throw usage_error("give at least one --series DIR");
  }
  gate::GateRequest request;
  std::optional<std::string> series_base;
  for (const auto& s : vm["series"].as<std::vector<std::string>>()) {
    const SeriesInput input = resolve_series_input(context, vm, s);
    request.series.push_back(fs::absolute(input.path));
    request.reproduce.series.push_back(series_input_arguments(input, vm));
    series_base = series_base ? series_base : input.base;
  }
  request.matrix =
      gate::load_matrix(configs_dir(vm), testcases_dir(vm), vm["matrix"].as<std::string>());
  for (const auto& series : request.series) {
    gate::load_expectations(series);  // a malformed or empty expect file: exit 2 now, not later
  }
  const std::string accel = vm["accel"].as<std::string>();
  request.accel = parse_accel(accel);
  request.clock = checked_clock(vm["clock"].as<std::string>());
  request.memory = memory_clock_settings(vm, request.clock);
  request.judged_by = KSERIES_GIT_DESCRIBE;
  request.reproduce.accel = accel;
  request.reproduce.clock = request.clock;
  request.reuse_base_boots = vm.count("reuse-base-boots") > 0;
  request.reuse_boots = vm.count("reuse-boots") > 0;
  if (vm.count("resume")) {
    request.resume = fs::path(vm["resume"].as<std::string>()) / "gate.json";
    if (!fs::is_regular_file(*request.resume)) {
      throw usage_error("--resume: no gate.json in " + vm["resume"].as<std::string>());
    }
  }
  if (vm.count("shard")) {
    const auto spec = gate::parse_shard_spec(vm["shard"].as<std::string>());
    // The jobs follow from the matrix alone: the series are named (loaded,
    // once) by the gate itself, which writes shard.json.
    request.share = gate::Share{gate::make_plan(request.matrix, {}, spec.count), spec.index};
  }
  const Base base = resolve_base_for(context, vm, series_base);
  request.base = base.commit;
  request.base_label = base.label;
  request.reproduce.base = base_arguments(vm, base);
  for (const char* option : {"configs", "testcases"}) {
    if (vm.count(option)) {
      request.reproduce.directories.push_back("--" + std::string(option));
      request.reproduce.directories.push_back(fs::absolute(vm[option].as<std::string>()).string());
    }
  }
  request.run_dir = context.workdir().new_run("gate");

  kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(),
                                std::max<std::size_t>(1, vm["jobs"].as<std::size_t>()));
  gate::GateServices services{context.store(), builder, context.runner(), context.workdir().root()};
  StderrStatus status;
  // Said first, so that an interrupted gate's run is known (--resume it).
  status.progress("gate: run directory " + request.run_dir.string());
  const auto result = gate::run_gate(request, services, status);

  return finish_gate(result, request.run_dir,
                     request.share
                         ? "shard " + vm["shard"].as<std::string>() + " of plan " + result.plan_id +
                               ": its cells only; `kseries merge` every shard\n"
                         : "",
                     vm);
}

int finish_gate(const gate::GateResult& result, const fs::path& run_dir, const std::string& trailer,
                const po::variables_map& vm) {
  const std::string text =
      gate::render_gate(result) + trailer + "run directory " + run_dir.string() + "\n";
  text_report_stream(vm) << printable_text(text);
  write_new_file(run_dir / "gate.txt", printable_text(text));
  const auto suites = gate_junit_suites(result);
  report::write_junit(run_dir / "junit.xml", suites);
  if (vm.count("junit")) {
    report::write_junit(vm["junit"].as<std::string>(), suites);
  }
  if (vm.count("json")) {
    report::write_report(vm["json"].as<std::string>(), read_file(run_dir / "gate.json"));
  }
  write_run_reports(run_dir, vm);
  if (result.interrupted) {
    return static_cast<int>(ExitCode::k_interrupted);
  }
  return result.ok() ? 0 : static_cast<int>(ExitCode::k_check_failed);
}

std::vector<report::TestSuite> gate_junit_suites(const gate::GateResult& result) {
  return report::gate_junit_suites(result.verdicts, result.cells, result.interrupted,
                                   result.interruption, result.interruption_in_a_cell);
}

}  // namespace kseries::cli
