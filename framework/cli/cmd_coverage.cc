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

std::vector<coverage::CoverFile> read_cover_files(const po::variables_map& vm) {
  std::vector<coverage::CoverFile> files;
  if (!vm.count("cover")) {
    return files;
  }
  for (const auto& path : vm["cover"].as<std::vector<std::string>>()) {
    files.push_back(coverage::parse_cover_text(read_file(path), path));
    if (!files.back().complete) {
      progress("note: " + path + " has no 'end' line (the run was cut short): read what it has");
    }
  }
  return files;
}

std::map<std::string, std::vector<kernel::ConfigRequest>> matrix_targets(const fs::path& configs) {
  std::map<std::string, std::vector<kernel::ConfigRequest>> targets;
  for (const auto& name : kernel::list_targets(configs)) {
    targets[name] = kernel::target_requests(kernel::load_target(configs, name));
  }
  return targets;
}

// The macros (not CONFIG_*) the conditions around LINES' rowless lines test.
std::set<std::string> tested_macros(const std::vector<coverage::ChangedLine>& lines, std::size_t k,
                                    const coverage::LineTable& table,
                                    const std::map<std::string, std::string>& texts) {
  std::set<std::string> names;
  std::map<std::string, coverage::SourceText> sources;
  for (const auto* line : coverage::lines_at_prefix(lines, k)) {
    const auto& at = *line->at[k - 1];
    const auto text = texts.find(at.path);
    if (table.find(at.path, at.line) || text == texts.end()) {
      continue;
    }
    auto source = sources.try_emplace(at.path, text->second).first;
    if (at.line > static_cast<int>(source->second.size())) {
      continue;
    }
    for (const auto& condition : source->second.conditions(at.line)) {
      const auto value = coverage::evaluate_condition(condition.expression, {});
      names.insert(value.macros.begin(), value.macros.end());
    }
  }
  return names;
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
  std::vector<coverage::PatchChange> changes;
  for (std::size_t i = 0; i < k; ++i) {
    changes.push_back(coverage::read_patch_change(top.patches[i].diff, top.label(i)));
  }
  const auto lines = coverage::changed_lines(changes);
  std::set<std::string> paths;
  std::map<std::string, std::string> texts;  // the built tree's version of each changed file
  for (const auto* line : coverage::lines_at_prefix(lines, k)) {
    const std::string& path = line->at[k - 1]->path;
    if (paths.insert(path).second) {
      if (auto text = git::read_blob_at(context.store(), tree_commit, path)) {
        texts[path] = std::move(*text);
      }
    }
  }

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
  coverage::LineTable table = coverage::read_line_table(vmlinux, paths);
  if (vm.count("module")) {
    for (const auto& module : vm["module"].as<std::vector<std::string>>()) {
      table.merge(coverage::read_line_table(module, paths));
    }
  }
  const auto cover_files = read_cover_files(vm);
  const auto executed = coverage::merge_executed(cover_files);

  // Phase 3, the reasons: the tree's conditions against this .config.
  coverage::TreeFacts facts;
  facts.arch = arch;
  if (fs::exists(config)) {
    facts.config = kernel::parse_dot_config(read_file(config));
  } else {
    progress("note: no .config at " + config.string() + ": every CONFIG_ symbol reads as unset");
  }
  std::optional<kernel::KconfigIndex> kconfig;
  if (!source.empty() && fs::is_directory(source)) {
    kconfig = kernel::KconfigIndex::scan(source);
    facts.kconfig = &*kconfig;
  }
  const std::set<std::string> macros = tested_macros(lines, k, table, texts);
  for (const auto& [path, text] : texts) {
    facts.macros.add_text(path, text, macros);
  }
  if (!source.empty()) {
    facts.macros.scan(source, macros, paths);
  }
  facts.targets = matrix_targets(configs_dir(vm));
  const coverage::ReasonFinder reasons(facts);

  // Phase 4, judge and report.
  coverage::CoverageInput request;
  request.table = &table;
  request.executed = cover_files.empty() ? nullptr : &executed;
  request.reasons = &reasons;
  request.read_source = [&](const std::string& path) -> std::optional<std::string> {
    const auto it = texts.find(path);
    return it == texts.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  const auto verdicts = coverage::judge_lines(lines, k, request);
  const auto summary = coverage::summarise(verdicts, !cover_files.empty());
  if (!cover_files.empty() && !verdicts.empty() && executed.size() > 0 && summary.executed == 0) {
    progress(
        "note: no changed line ran: was the kernel booted with KASLR (the addresses must "
        "be vmlinux's: boot with nokaslr)?");
  }
  std::ostream& out = text_report_stream(vm);
  out << printable_text(
      top.name + " (" + std::to_string(k) + " of " + std::to_string(top.patches.size()) +
      " patches) on " + vmlinux.string() + ": " + std::to_string(table.rows()) +
      " line-table rows in the changed files, " + std::to_string(executed.size()) +
      " executed addresses from " + std::to_string(cover_files.size()) + " cover file(s)\n");
  out << printable_text(coverage::line_table_text(verdicts));
  out << printable_text(coverage::summary_line(verdicts, summary)) << "\n";
  if (vm.count("json")) {
    nlohmann::json json = coverage::coverage_json(verdicts, summary);
    json["series"] = top.name;
    json["patches"] = k;
    json["vmlinux"] = vmlinux.string();
    json["tree"] = git::to_hex(tree_commit);
    report::write_report(vm["json"].as<std::string>(), json_text(json));
  }
  return 0;
}

}  // namespace kseries::cli
