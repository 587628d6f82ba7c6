// kseries merge: a thin driver over gate/merge.h. The run directories of
// every shard of a `kseries gate --shard I/N` in, one gate report out (text,
// gate.json, JUnit, report.html, kcidb.json) in a new run directory, with
// the single-machine verdict.
#include <iostream>

#include "cli/commands.h"
#include "cli/run_reports.h"
#include "core/error.h"
#include "core/utf8.h"
#include "gate/merge.h"
#include "report/junit.h"
#include "report/output.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

int run_merge(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries merge options");
  options.add_options()("run-dir", po::value<std::vector<std::string>>()->composing(),
                        "a shard's run directory (positional; give every shard)")(
      "junit", po::value<std::string>(), "also write the JUnit XML report here ('-': stdout)")(
      "json", po::value<std::string>(), "also write the merged cells (JSON) here ('-': stdout)");
  add_run_report_options(options);
  po::positional_options_description positional;
  positional.add("run-dir", -1);
  po::variables_map vm;
  if (!parse_command_line("merge", "RUN_DIR... [--junit FILE] [--json FILE] [--html FILE]", args,
                          options, vm, context, &positional)) {
    return 0;
  }
  if (!vm.count("run-dir")) {
    throw usage_error("give the run directory of every shard");
  }
  std::vector<fs::path> dirs;
  for (const auto& d : vm["run-dir"].as<std::vector<std::string>>()) {
    dirs.push_back(fs::absolute(d));
  }
  const auto merged = gate::merge_shards(dirs);
  const fs::path run_dir = context.workdir().new_run("merge");

  gate::write_merged_store(merged, run_dir);  // the gate's own gate.json
  return finish_gate(merged.gate, run_dir,
                     "merged " + std::to_string(dirs.size()) + " shard(s) of plan " +
                         merged.plan.id + " (matrix " + merged.plan.matrix + ", base " +
                         merged.base + ")\n",
                     vm);
}

}  // namespace kseries::cli
