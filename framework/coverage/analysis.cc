#include "coverage/analysis.h"

#include "coverage/line_table.h"
#include "coverage/reasons.h"
#include "coverage/source_context.h"
#include "git/blob_reader.h"
#include "kernel/kconfig_index.h"
#include "kernel/target.h"
#include "sys/files.h"

namespace kseries::coverage {

namespace fs = std::filesystem;

SeriesLines series_lines(const Series& series, std::size_t k, git::Store& store,
                         const git_oid& tree) {
  SeriesLines out;
  out.k = k;
  std::vector<PatchChange> changes;
  for (std::size_t i = 0; i < k; ++i) {
    changes.push_back(read_patch_change(series.patches[i].diff, series.label(i)));
  }
  out.lines = changed_lines(changes);
  for (const auto* line : lines_at_prefix(out.lines, k)) {
    const std::string& path = line->at[k - 1]->path;
    if (out.paths.insert(path).second) {
      if (auto text = git::read_blob_at(store, tree, path)) {
        out.texts[path] = std::move(*text);
      }
    }
  }
  return out;
}

CoverFile read_cover_file(const fs::path& path,
                          const std::function<void(const std::string&)>& progress) {
  CoverFile file = parse_cover_text(read_file(path), path.string());
  if (!file.complete) {
    progress("note: " + path.string() +
             " has no 'end' line (the run was cut short): read what it has");
  }
  return file;
}

namespace {

std::map<std::string, std::vector<kernel::ConfigRequest>> matrix_targets(const fs::path& configs) {
  std::map<std::string, std::vector<kernel::ConfigRequest>> targets;
  if (configs.empty()) {
    return targets;
  }
  for (const auto& name : kernel::list_targets(configs)) {
    targets[name] = kernel::target_requests(kernel::load_target(configs, name));
  }
  return targets;
}

// The macros (not CONFIG_*) the conditions around the rowless lines test.
std::set<std::string> tested_macros(const SeriesLines& lines, const LineTable& table) {
  std::set<std::string> names;
  std::map<std::string, SourceText> sources;
  for (const auto* line : lines_at_prefix(lines.lines, lines.k)) {
    const auto& at = *line->at[lines.k - 1];
    const auto text = lines.texts.find(at.path);
    if (table.find(at.path, at.line) || text == lines.texts.end()) {
      continue;
    }
    auto source = sources.try_emplace(at.path, text->second).first;
    if (at.line > static_cast<int>(source->second.size())) {
      continue;
    }
    for (const auto& condition : source->second.conditions(at.line)) {
      const auto value = evaluate_condition(condition.expression, {});
      names.insert(value.macros.begin(), value.macros.end());
    }
  }
  return names;
}

}  // namespace

KernelCoverage analyse_kernel(const SeriesLines& lines, const KernelInput& input) {
  LineTable table = read_line_table(input.vmlinux, lines.paths);
  for (const auto& module : input.modules) {
    table.merge(read_line_table(module, lines.paths));
  }
  const auto executed = merge_executed(input.cover);

  // The reasons: the tree's conditions against this .config.
  TreeFacts facts;
  facts.arch = input.arch;
  std::error_code ec;
  if (!input.config.empty() && fs::is_regular_file(input.config, ec)) {
    facts.config = kernel::parse_dot_config(read_file(input.config));
  } else {
    input.progress("note: no .config at " + input.config.string() +
                   ": every CONFIG_ symbol reads as unset");
  }
  std::optional<kernel::KconfigIndex> kconfig;
  if (!input.source.empty() && fs::is_directory(input.source, ec)) {
    kconfig = kernel::KconfigIndex::scan(input.source);
    facts.kconfig = &*kconfig;
  }
  const std::set<std::string> macros = tested_macros(lines, table);
  for (const auto& [path, text] : lines.texts) {
    facts.macros.add_text(path, text, macros);
  }
  if (!input.source.empty()) {
    facts.macros.scan(input.source, macros, lines.paths);
  }
  facts.targets = matrix_targets(input.configs);
  facts.matrix = input.matrix;
  const ReasonFinder reasons(facts);

  CoverageInput request;
  request.table = &table;
  request.executed = input.cover.empty() ? nullptr : &executed;
  request.reasons = &reasons;
  request.read_source = [&](const std::string& path) -> std::optional<std::string> {
    const auto it = lines.texts.find(path);
    return it == lines.texts.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  KernelCoverage out;
  out.verdicts = judge_lines(lines.lines, lines.k, request);
  out.summary = summarise(out.verdicts, !input.cover.empty());
  out.rows = table.rows();
  out.executed_pcs = executed.size();
  if (!input.cover.empty() && !out.verdicts.empty() && out.executed_pcs > 0 &&
      out.summary.executed == 0) {
    input.progress(
        "note: no changed line ran: was the kernel booted with KASLR (the addresses must "
        "be vmlinux's: boot with nokaslr)?");
  }
  return out;
}

}  // namespace kseries::coverage
