// kseries plan: a thin driver over gate/shard.h. Prints the gate's cells as
// independent jobs (JSON), each job assigned to one of N shards, so CI can
// start one `kseries gate --shard I/N` per shard and `kseries merge` them.
#include <algorithm>

#include "cli/commands.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/json_text.h"
#include "gate/matrix.h"
#include "gate/shard.h"
#include "report/output.h"

namespace kseries::cli {

namespace fs = std::filesystem;

int run_plan(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries plan options");
  options.add_options()("series", po::value<std::vector<std::string>>()->composing(),
                        "a series revision (directory or mbox); repeat for several")(
      "matrix", po::value<std::string>()->default_value("default"),
      "a matrix NAME (kernel-configs/matrices/NAME.matrix) or a matrix FILE")(
      "shards", po::value<int>()->default_value(1), "how many shards (machines) to plan for")(
      "configs", po::value<std::string>(), "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(),
      "testcases directory: the matrix's cases are checked as the gate checks them (default: "
      "only its targets)")("json", po::value<std::string>()->default_value("-"),
                           "where the plan goes ('-': stdout)");
  options.add(base_options());  // --tree, for a --series range or b4 branch
  options.add(series_input_options());
  po::variables_map vm;
  if (!parse_command_line("plan", "--series DIR [--series DIR ...] [--matrix M] [--shards N]", args,
                          options, vm, context)) {
    return 0;
  }
  if (!vm.count("series")) {
    throw usage_error("give at least one --series DIR");
  }
  std::vector<fs::path> series;
  for (const auto& s : vm["series"].as<std::vector<std::string>>()) {
    series.push_back(fs::absolute(resolve_series_input(context, vm, s).path));
  }
  const auto matrix = gate::load_matrix(
      configs_dir(vm),
      vm.count("testcases") ? std::optional<fs::path>(testcases_dir(vm)) : std::nullopt,
      vm["matrix"].as<std::string>());
  const auto plan = gate::make_plan(matrix, gate::load_plan_series(series), vm["shards"].as<int>());
  report::write_report(vm["json"].as<std::string>(), json_text(gate::plan_json(plan)));
  int empty = 0;
  for (int i = 1; i <= plan.shards; ++i) {
    empty += std::none_of(plan.jobs.begin(), plan.jobs.end(),
                          [&](const gate::PlanJob& job) { return job.shard == i; });
  }
  progress("plan " + plan.id + ": " + std::to_string(plan.jobs.size()) + " job(s) on " +
           std::to_string(plan.shards) + " shard(s)" +
           (empty ? ", " + std::to_string(empty) +
                        " of them empty (more shards than jobs: they only apply the series)"
                  : ""));
  return 0;
}

}  // namespace kseries::cli
