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
  for (const auto* line : present_lines(out.lines)) {
    const std::string& path = line->at->path;
    if (out.paths.insert(path).second) {
      if (auto text = git::read_blob_at(store, tree, path)) {
        out.texts[path] = std::move(*text);
      }
    }
  }
  return out;
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

// The macros (not CONFIG_*) the conditions around the rowless lines test:
// each set of conditions, and each condition, read once.
std::set<std::string> tested_macros(const SeriesLines& lines, const LineTable& table) {
  std::set<std::string> names;
  std::map<std::string, SourceText> sources;
  std::set<std::pair<std::string, SourceText::ConditionsKey>> seen;
  std::set<const void*> evaluated;
  std::vector<EnclosingCondition> kept;  // their identities stay while the set holds them
  for (const auto* line : present_lines(lines.lines)) {
    const auto& at = *line->at;
    const auto text = lines.texts.find(at.path);
    if (table.find(at.path, at.line) || text == lines.texts.end()) {
      continue;
    }
    auto source = sources.try_emplace(at.path, text->second).first;
    if (at.line > static_cast<int>(source->second.size()) ||
        source->second.holds_no_code(at.line) ||
        !seen.emplace(at.path, source->second.conditions_key(at.line)).second) {
      continue;
    }
    for (const auto& condition : source->second.conditions(at.line)) {
      if (!evaluated.insert(condition.identity()).second) {
        continue;
      }
      kept.push_back(condition);
      const auto value = evaluate_condition(condition.expression(), {});
      names.insert(value.macros.begin(), value.macros.end());
    }
  }
  return names;
}

// The code addresses of the changed lines' rows: the only ones of the
// cover files worth keeping.
AddressRanges changed_code(const SeriesLines& lines, const LineTable& table) {
  AddressRanges ranges;
  for (const auto* line : present_lines(lines.lines)) {
    if (const LineCode* code = table.find(line->at->path, line->at->line)) {
      for (const auto& range : code->ranges) {
        ranges.emplace_back(range.begin, range.end);
      }
    }
  }
  return normalise_ranges(std::move(ranges));
}

}  // namespace

KernelCoverage analyse_kernel(const SeriesLines& lines, const KernelInput& input) {
  LineTable table = read_line_table(input.vmlinux, lines.paths);
  for (const auto& module : input.modules) {
    table.merge(read_line_table(module, lines.paths));
  }
  const Executed executed = read_executed(input.cover, changed_code(lines, table));
  for (const auto& file : executed.cut_short) {
    input.progress("note: " + file +
                   " has no 'end' line (the run was cut short): read what it has");
  }

  // The reasons: the tree's conditions against this .config.
  TreeFacts facts;
  facts.arch = input.arch;
  std::error_code ec;
  if (!input.config.empty() && fs::is_regular_file(input.config, ec)) {
    // A .config is a few hundred KiB; a larger file is no .config.
    facts.config = kernel::parse_dot_config(read_file(input.config, std::size_t{16} << 20));
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
  request.executed = input.cover.empty() ? nullptr : &executed.pcs;
  request.reasons = &reasons;
  request.read_source = [&](const std::string& path) -> std::optional<std::string> {
    const auto it = lines.texts.find(path);
    return it == lines.texts.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  KernelCoverage out;
  out.verdicts = judge_lines(lines.lines, request);
  out.summary = summarise(out.verdicts, !input.cover.empty());
  out.rows = table.rows();
  out.executed_pcs = executed.distinct;
  if (!input.cover.empty() && !out.verdicts.empty() && out.executed_pcs > 0 &&
      out.summary.executed == 0) {
    input.progress(
        "note: no changed line ran: was the kernel booted with KASLR (the addresses must "
        "be vmlinux's: boot with nokaslr)?");
  }
  return out;
}

}  // namespace kseries::coverage
