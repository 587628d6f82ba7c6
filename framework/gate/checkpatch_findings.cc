#include "gate/checkpatch_findings.h"

#include <charconv>
#include <map>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "gate/checkpatch.h"
#include "results/cell_id.h"

namespace kseries::gate {

CheckpatchPolicy parse_checkpatch_policy(const std::vector<std::string>& words,
                                         const std::string& where, int line) {
  const std::string usage = where + ": 'checkpatch: max-new-errors=N'";
  constexpr std::string_view k_key = "max-new-errors=";
  if (words.size() != 1 || !starts_with(words[0], k_key)) {
    throw usage_error(usage);
  }
  const std::string value = words[0].substr(k_key.size());
  int n = -1;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < 0 || n > 100000) {
    throw usage_error(usage + ": N must be a number from 0 to 100000, not '" + value + "'");
  }
  return {n, line};
}

std::string CheckpatchFinding::text() const {
  int total = 0;
  for (const auto& a : added) {
    total += a.count;
  }
  std::string out = "checkpatch: +" + std::to_string(total) + " error(s) against " + from + ":";
  for (std::size_t i = 0; i < added.size(); ++i) {
    const auto& a = added[i];
    out += std::string(i ? ", " : " ") + a.type + " +" + std::to_string(a.count) + " (" + a.patches;
    if (a.upstream > 0) {
      out += ", " + std::to_string(a.upstream) + " upstream's as posted";
    }
    out += ")";
  }
  return out + "; " + std::to_string(port_errors) + " the port's";
}

namespace {

struct Counts {
  std::map<std::string, int> errors;             // per type
  std::map<std::string, std::set<int>> patches;  // per type
  std::map<std::string, int> upstream;           // per type, in as-posted patches
};

// A checkpatch cell's per-type error counts; nullopt without them.
std::optional<Counts> counts_of(const std::vector<results::CellResult>& cells,
                                const std::string& series) {
  const std::string name = results::CellId::checkpatch().to_string();
  for (const auto& cell : cells) {
    if (cell.series != series || cell.cell != name || cell.status != results::Outcome::k_pass) {
      continue;
    }
    const auto types = cell.properties.find(k_checkpatch_types);
    if (types == cell.properties.end()) {
      return std::nullopt;
    }
    std::set<int> posted;
    if (const auto it = cell.properties.find(k_checkpatch_upstream); it != cell.properties.end()) {
      std::istringstream in(it->second);
      for (int patch; in >> patch;) {
        posted.insert(patch);
      }
    }
    Counts counts;
    std::istringstream lines(types->second);
    int patch = 0, count = 0;
    std::string severity, type;
    while (lines >> patch >> severity >> type >> count) {
      if (severity != "ERROR") {
        continue;
      }
      counts.errors[type] += count;
      counts.patches[type].insert(patch);
      if (posted.count(patch)) {
        counts.upstream[type] += count;
      }
    }
    return counts;
  }
  return std::nullopt;
}

}  // namespace

std::vector<CheckpatchFinding> checkpatch_findings(
    const std::vector<RevisionComparison>& comparisons,
    const std::vector<results::CellResult>& cells, const std::optional<CheckpatchPolicy>& policy) {
  std::vector<CheckpatchFinding> findings;
  for (const auto& comparison : comparisons) {
    const auto older = counts_of(cells, comparison.from);
    const auto newer = counts_of(cells, comparison.to);
    if (!older || !newer) {
      continue;
    }
    CheckpatchFinding finding{comparison.to, comparison.from, {}, 0, false};
    for (const auto& [type, count] : newer->errors) {
      const auto before = older->errors.find(type);
      const int added = count - (before == older->errors.end() ? 0 : before->second);
      if (added <= 0) {
        continue;
      }
      const auto up = newer->upstream.find(type);
      const int upstream = std::min(added, up == newer->upstream.end() ? 0 : up->second);
      std::string patches;
      for (const int patch : newer->patches.at(type)) {
        patches += (patches.empty() ? "" : ", ") + std::to_string(patch) + "/" +
                   std::to_string(comparison.to_patches);
      }
      finding.added.push_back({type, added, upstream, patches});
      finding.port_errors += added - upstream;
    }
    if (finding.added.empty()) {
      continue;
    }
    finding.fails = policy && finding.port_errors > policy->max_new_errors;
    findings.push_back(std::move(finding));
  }
  return findings;
}

void add_checkpatch_failures(const std::vector<std::string>& texts,
                             const std::optional<CheckpatchPolicy>& policy,
                             const std::string& matrix_file, results::CellResult& cell) {
  if (texts.empty() || !policy) {
    return;
  }
  const std::string max = std::to_string(policy->max_new_errors);
  cell.summary = texts.front() + " (policy: checkpatch max-new-errors=" + max + ")";
  for (const auto& text : texts) {
    cell.detail += text + "\n";
  }
  cell.properties["policy.checkpatch_max_new_errors"] = max;
  cell.properties["policy.checkpatch_line"] = matrix_file + ":" + std::to_string(policy->line);
}

}  // namespace kseries::gate
