// kseries report: the HTML page and the KCIDB file of an earlier run, drawn
// again from its directory (a gate's gate.json and cells, or a boot's
// results.json). It writes only where it is told: the run directory is
// read, never changed.
#include "cli/commands.h"
#include "cli/run_reports.h"
#include "core/error.h"

namespace kseries::cli {

namespace fs = std::filesystem;

int run_report(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries report options");
  options.add_options()("run", po::value<std::string>(), "the run directory");
  add_run_report_options(options);
  po::variables_map vm;
  if (!parse_command_line("report", "--run DIR [--html FILE] [--kcidb FILE]", args, options, vm,
                          context)) {
    return 0;
  }
  if (!vm.count("run") || (!vm.count("html") && !vm.count("kcidb"))) {
    throw usage_error("give --run DIR and --html FILE and/or --kcidb FILE");
  }
  const auto run = report::load_run(fs::absolute(vm["run"].as<std::string>()));
  if (vm.count("html")) {
    write_html(run, vm["html"].as<std::string>());
  }
  if (vm.count("kcidb")) {
    write_kcidb(run, vm["kcidb"].as<std::string>());
  }
  return 0;
}

}  // namespace kseries::cli
