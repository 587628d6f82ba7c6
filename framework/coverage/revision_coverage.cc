#include "coverage/revision_coverage.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "core/error.h"
#include "core/text.h"

namespace kseries::coverage {

namespace {

bool counted(LineStatus status) {
  return status == LineStatus::k_executed || status == LineStatus::k_compiled ||
         status == LineStatus::k_never_compiled;
}

// The merged verdict of one line from its verdict in each cell.
MergedLine merge_line(const std::vector<CellLines>& cells, std::size_t i) {
  MergedLine merged;
  const LineVerdict* executed = nullptr;
  const LineVerdict* compiled = nullptr;
  const LineVerdict* never = nullptr;
  const LineVerdict* uncounted = nullptr;  // no code of its own, or a macro's line
  for (const auto& cell : cells) {
    const LineVerdict& verdict = cell.coverage.verdicts[i];
    const bool has_code =
        verdict.status == LineStatus::k_executed || verdict.status == LineStatus::k_compiled;
    if (has_code && std::find(merged.compiled_in.begin(), merged.compiled_in.end(), cell.target) ==
                        merged.compiled_in.end()) {
      merged.compiled_in.push_back(cell.target);
    }
    if (verdict.status == LineStatus::k_executed) {
      merged.executed_in.push_back(cell.cell);
      if (!executed || verdict.executions > executed->executions) {
        executed = &verdict;
      }
    }
    compiled = compiled ? compiled : (has_code ? &verdict : nullptr);
    never = never ? never : (verdict.status == LineStatus::k_never_compiled ? &verdict : nullptr);
    uncounted = uncounted || counted(verdict.status) ? uncounted : &verdict;
  }
  // A line one kernel shows has no code of its own (its code is credited
  // to another line) is not counted because another kernel compiled its
  // function out: it would count as never compiled there alone.
  const LineVerdict* chosen = executed    ? executed
                              : compiled  ? compiled
                              : uncounted ? uncounted
                              : never     ? never
                                          : &cells.front().coverage.verdicts[i];
  merged.verdict = *chosen;
  if (!executed && compiled) {
    merged.verdict.status = LineStatus::k_compiled;
  }
  if (chosen == never && merged.verdict.reason) {
    // Never compiled anywhere: the first cell's reason, and where another
    // cell (a target that sets the symbol, say) has a reason of its own,
    // that one too ("KASAN: target kasan-coverage (on kasan-coverage: f():
    // no code in this kernel)").
    std::string others;
    for (const auto& cell : cells) {
      const auto& reason = cell.coverage.verdicts[i].reason;
      if (reason && reason->key != merged.verdict.reason->key &&
          others.find("on " + cell.target + ":") == std::string::npos) {
        others +=
            (others.empty() ? "" : "; ") + std::string("on ") + cell.target + ": " + reason->key;
      }
    }
    if (!others.empty()) {
      merged.verdict.reason->key += " (" + others + ")";
    }
  }
  return merged;
}

std::vector<LineVerdict> verdicts_of(const std::vector<MergedLine>& lines) {
  std::vector<LineVerdict> out;
  out.reserve(lines.size());
  for (const auto& line : lines) {
    out.push_back(line.verdict);
  }
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    out += (out.empty() ? "" : ", ") + item;
  }
  return out;
}

}  // namespace

RevisionCoverage merge_cells(std::vector<CellLines> cells) {
  RevisionCoverage out;
  out.cells = std::move(cells);
  if (out.cells.empty()) {
    return out;
  }
  const std::size_t n = out.cells.front().coverage.verdicts.size();
  bool ran = false;
  for (const auto& cell : out.cells) {
    if (cell.coverage.verdicts.size() != n) {
      throw infra_error("coverage: cell " + cell.cell + " judged " +
                        std::to_string(cell.coverage.verdicts.size()) + " lines, " +
                        out.cells.front().cell + " " + std::to_string(n) +
                        " (not the same series lines)");
    }
    ran = ran || cell.cover_files > 0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    out.lines.push_back(merge_line(out.cells, i));
  }
  const auto verdicts = verdicts_of(out.lines);
  out.summary = summarise(verdicts, ran);
  out.summary_line = summary_line(verdicts, out.summary);
  return out;
}

std::vector<std::string> cell_lines_text(const RevisionCoverage& coverage) {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < coverage.cells.size(); ++c) {
    const auto& cell = coverage.cells[c];
    const auto& summary = cell.coverage.summary;
    std::string line = cell.cell + ": ";
    if (cell.cover_files == 0) {
      line += std::to_string(summary.compiled) + " of " + std::to_string(summary.changed) +
              " changed lines compiled; no cover file (the boot did not write one): executed "
              "not known";
      out.push_back(std::move(line));
      continue;
    }
    line += std::to_string(summary.executed) + " of " + std::to_string(summary.changed) +
            " changed lines executed (" + std::to_string(cell.cover_files) + " boot(s), " +
            std::to_string(cell.coverage.executed_pcs) + " kernel addresses)";
    // The lines another cell ran that this one did not, and why.
    std::map<std::string, int> never_here;
    int compiled_here = 0;
    for (std::size_t i = 0; i < coverage.lines.size(); ++i) {
      const auto& mine = cell.coverage.verdicts[i];
      if (coverage.lines[i].verdict.status != LineStatus::k_executed ||
          mine.status == LineStatus::k_executed) {
        continue;
      }
      if (mine.status == LineStatus::k_never_compiled && mine.reason) {
        ++never_here[mine.reason->key];
      } else {
        ++compiled_here;
      }
    }
    int never_total = 0;
    std::string reasons;
    for (const auto& [key, count] : never_here) {
      never_total += count;
      reasons += (reasons.empty() ? "" : ", ") + key + " x" + std::to_string(count);
    }
    if (never_total + compiled_here > 0) {
      line += "; of the lines other cells ran, " + std::to_string(never_total) +
              " never compiled here" + (reasons.empty() ? "" : " (" + reasons + ")") + ", " +
              std::to_string(compiled_here) + " compiled here, not run";
    }
    out.push_back(std::move(line));
  }
  return out;
}

std::string revision_coverage_text(const RevisionCoverage& coverage) {
  std::string out = coverage.summary_line + "\n";
  for (const auto& line : cell_lines_text(coverage)) {
    out += "  " + line + "\n";
  }
  for (const auto& merged : coverage.lines) {
    const auto& verdict = merged.verdict;
    std::string detail;
    if (!merged.compiled_in.empty()) {
      detail = "compiled in " + joined(merged.compiled_in);
    }
    if (!merged.executed_in.empty()) {
      detail += "; executed in " + joined(merged.executed_in);
    }
    if (verdict.status == LineStatus::k_never_compiled && verdict.reason) {
      detail = verdict.reason->key;
    }
    out += verdict_line(verdict, detail);
  }
  return out;
}

results::CoverageRecord revision_coverage_record(const RevisionCoverage& coverage) {
  results::CoverageRecord record = coverage_record(verdicts_of(coverage.lines), coverage.summary);
  record.merged = true;
  for (std::size_t i = 0; i < coverage.lines.size(); ++i) {
    record.lines[i].compiled_in = coverage.lines[i].compiled_in;
    record.lines[i].executed_in = coverage.lines[i].executed_in;
  }
  const auto texts = cell_lines_text(coverage);
  for (std::size_t c = 0; c < coverage.cells.size(); ++c) {
    const auto& cell = coverage.cells[c];
    record.cells.push_back({cell.cell, cell.target, texts[c], static_cast<int>(cell.cover_files),
                            coverage_counts(cell.coverage.summary), cell.coverage.executed_pcs});
  }
  return record;
}

namespace {

std::optional<int> number(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

void add_policy_line(CoveragePolicy& policy, const std::string& text, const std::string& where) {
  const std::string_view line = trim(text);
  const auto bad = [&](const std::string& why) {
    return usage_error(where + ": coverage: " + why +
                       " (expected 'min=PCT' or 'require FILE:FIRST-LAST')");
  };
  if (starts_with(line, "min=")) {
    const std::string value(line.substr(4));
    char* end = nullptr;
    const double percent = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(percent >= 0) || percent > 100) {
      throw bad("'" + value + "' is not a percentage from 0 to 100");
    }
    policy.min_percent = percent;
    return;
  }
  if (starts_with(line, "require ") || starts_with(line, "require\t")) {
    const std::string_view range = trim(line.substr(8));
    const auto colon = range.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
      throw bad("'" + std::string(range) + "' is not FILE:FIRST-LAST");
    }
    const std::string_view lines = range.substr(colon + 1);
    const auto dash = lines.find('-');
    const auto first = number(lines.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : number(lines.substr(dash + 1));
    if (!first || !last || *last < *first) {
      throw bad("'" + std::string(lines) + "' is not a line range FIRST-LAST");
    }
    policy.require.push_back({std::string(range.substr(0, colon)), *first, *last, where});
    return;
  }
  throw bad("'" + std::string(line) + "' is not a policy");
}

std::vector<std::string> policy_failures(const RevisionCoverage& coverage,
                                         const CoveragePolicy& policy) {
  std::vector<std::string> out;
  const auto& summary = coverage.summary;
  if (policy.min_percent && summary.changed > 0) {
    const double percent =
        100.0 * static_cast<double>(summary.executed) / static_cast<double>(summary.changed);
    if (percent < *policy.min_percent) {
      char text[160];
      std::snprintf(text, sizeof text,
                    "coverage: min=%g: %zu of %zu changed lines executed (%.1f %%), below %g %%",
                    *policy.min_percent, summary.executed, summary.changed, percent,
                    *policy.min_percent);
      out.emplace_back(text);
    }
  }
  for (const auto& range : policy.require) {
    std::vector<LineVerdict> missed;
    std::size_t in_range = 0;
    for (const auto& merged : coverage.lines) {
      const auto& at = merged.verdict.position;
      if (at.path != range.file || at.line < range.first || at.line > range.last ||
          !counted(merged.verdict.status)) {
        continue;
      }
      ++in_range;
      if (merged.verdict.status != LineStatus::k_executed) {
        missed.push_back(merged.verdict);
      }
    }
    const std::string name = "coverage: require " + range.file + ":" + std::to_string(range.first) +
                             "-" + std::to_string(range.last) + " (" + range.where + ")";
    if (in_range == 0) {
      out.push_back(name + ": no changed line with code there (the policy checks nothing)");
    } else if (!missed.empty()) {
      std::string ranges = line_ranges(missed, LineStatus::k_compiled);
      const std::string never = line_ranges(missed, LineStatus::k_never_compiled);
      out.push_back(name + ": " + std::to_string(missed.size()) + " of " +
                    std::to_string(in_range) + " changed lines not executed" +
                    (ranges.empty() ? "" : "; compiled, never run: " + ranges) +
                    (never.empty() ? "" : "; never compiled: " + never));
    }
  }
  return out;
}

}  // namespace kseries::coverage
