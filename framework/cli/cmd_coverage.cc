// kseries coverage: which changed lines of a series a built kernel compiled
// (its DWARF line table) and executed (the plugin's cover= files), and why
// the others were never compiled. See docs/coverage.md.
#include <iostream>
#include <set>

#include "cli/commands.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/utf8.h"
#include "coverage/changed_lines.h"
#include "coverage/cover_file.h"
#include "coverage/line_coverage.h"
#include "coverage/line_table.h"
#include "coverage/reasons.h"
#include "git/blob_reader.h"
#include "kernel/kconfig_index.h"
#include "kernel/kernel_build.h"
#include "kernel/target.h"
#include "report/output.h"
#include "results/coverage_record.h"
#include "series/series_chain.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

po::options_description coverage_options() {
  po::options_description options("kseries coverage options");
  options.add_options()("series", po::value<std::string>()->required(),
                        "the series (as kseries apply takes it)")(
      "upto", po::value<std::size_t>(), "the prefix of the first K patches (default: the tip)")(
      "vmlinux", po::value<std::string>(),
      "the kernel built from that tree, with a DWARF line table (a coverage target)")(
      "target", po::value<std::string>(),
      "instead of --vmlinux: the kernel kseries build made of the series for this target")(
      "module", po::value<std::vector<std::string>>()->composing(),
      "a module (.ko) of that kernel whose line table counts too (repeatable)")(
      "cover", po::value<std::vector<std::string>>()->composing(),
      "a file the memcost plugin's cover= mode wrote in a boot of that kernel (repeatable)")(
      "config", po::value<std::string>(), "its .config (default: the built kernel's)")(
      "source", po::value<std::string>(),
      "a checkout of the tree (Kconfig files, headers) for the reasons (default: the target's)")(
      "configs", po::value<std::string>(),
      "kernel-configs directory whose targets may set a missing symbol (default: the bundled one)")(
      "json", po::value<std::string>(), "also write the per-line JSON here ('-': stdout)");
  options.add(base_options());
  options.add(series_input_options());
  return options;
}

}  // namespace

int run_coverage(Context& context, const std::vector<std::string>& args) {
  po::options_description options = coverage_options();
  po::variables_map vm;
  if (!parse_command_line(
          "coverage", "--series DIR (--vmlinux FILE | --target NAME) [--cover FILE]... [options]",
          args, options, vm, context)) {
    return 0;
  }
  if (vm.count("vmlinux") == vm.count("target")) {
    throw usage_error("kseries coverage: give one of --vmlinux FILE and --target NAME");
  }
  // Phase 1, the series: apply it, read each patch's changed lines.
  const SeriesInput input = resolve_series_input(context, vm, vm["series"].as<std::string>());
  const auto chain = load_series_chain(input.path);
  const Series& top = *chain.back();
  std::size_t k = top.patches.size();
  if (vm.count("upto")) {
    k = vm["upto"].as<std::size_t>();
    if (k == 0 || k > top.patches.size()) {
      throw usage_error("--upto " + std::to_string(k) + ": the series has " +
                        std::to_string(top.patches.size()) + " patches");
    }
  }
  const Base base = resolve_base_for(context, vm, input.base);
  const auto applied = apply_series_or_fail(context, base, chain, k);
  const git_oid tree_commit = applied.outcomes.back().commit;
  const auto lines = coverage::series_lines(top, k, context.store(), tree_commit);

  // Phase 2, the kernel: its line table, its .config, its tree.
  fs::path vmlinux, config, source;
  std::string arch = "x86_64";
  if (vm.count("target")) {
    const auto target = kernel::load_target(configs_dir(vm), vm["target"].as<std::string>());
    kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(), 1);
    const auto kernel = builder.find(target, tree_commit);
    if (!kernel) {
      throw usage_error("no " + target.name + " kernel built of " + top.name + " (" +
                        git::to_hex(tree_commit).substr(0, 12) + "): run kseries build --target " +
                        target.name + " --series ... first");
    }
    vmlinux = kernel->vmlinux;
    config = kernel->config;
    arch = kernel->arch;
    source = builder.target_dir(target) / "src";
  } else {
    vmlinux = vm["vmlinux"].as<std::string>();
    config = vmlinux.parent_path() / ".config";
  }
  if (vm.count("config")) {
    config = vm["config"].as<std::string>();
  }
  if (vm.count("source")) {
    source = vm["source"].as<std::string>();
  }
  coverage::KernelInput kernel_input;
  kernel_input.vmlinux = vmlinux;
  if (vm.count("module")) {
    for (const auto& module : vm["module"].as<std::vector<std::string>>()) {
      kernel_input.modules.emplace_back(module);
    }
  }
  kernel_input.config = config;
  kernel_input.source = source;
  kernel_input.configs = configs_dir(vm);
  kernel_input.arch = arch;
  kernel_input.progress = [](const std::string& text) { progress(text); };
  if (vm.count("cover")) {
    for (const auto& path : vm["cover"].as<std::vector<std::string>>()) {
      kernel_input.cover.emplace_back(path);
    }
  }
  const auto result = coverage::analyse_kernel(lines, kernel_input);
  const auto& verdicts = result.verdicts;
  const auto& summary = result.summary;
  std::ostream& out = text_report_stream(vm);
  out << printable_text(
      top.name + " (" + std::to_string(k) + " of " + std::to_string(top.patches.size()) +
      " patches) on " + vmlinux.string() + ": " + std::to_string(result.rows) +
      " line-table rows in the changed files, " + std::to_string(result.executed_pcs) +
      " executed addresses from " + std::to_string(kernel_input.cover.size()) + " cover file(s)\n");
  out << printable_text(coverage::line_table_text(verdicts));
  out << printable_text(coverage::summary_line(verdicts, summary)) << "\n";
  if (vm.count("json")) {
    auto record = coverage::coverage_record(verdicts, summary);
    record.series = top.name;
    record.patches = static_cast<int>(k);
    record.vmlinux = vmlinux.string();
    record.tree = git::to_hex(tree_commit);
    report::write_report(vm["json"].as<std::string>(), json_text(results::to_json(record)));
  }
  return 0;
}

}  // namespace kseries::cli
