#include "coverage/line_coverage.h"

#include <algorithm>
#include <map>
#include <memory>

namespace kseries::coverage {

const char* status_name(LineStatus status) {
  switch (status) {
    case LineStatus::k_executed:
      return "executed";
    case LineStatus::k_compiled:
      return "compiled";
    case LineStatus::k_never_compiled:
      return "never-compiled";
    case LineStatus::k_no_code:
      return "no-code";
    case LineStatus::k_macro:
      return "macro";
  }
  return "?";
}

namespace {

// The texts of the files judged, each read once, and the explanation of
// each set of enclosing conditions, worked out once for all the lines
// under it (a 50,000-line hunk inside one #ifdef is one explanation).
class Sources {
 public:
  explicit Sources(const CoverageInput& input) : m_input(input) {}
  const std::optional<NeverCompiled>& explain(const std::string& path, const SourceText& source,
                                              int line) {
    const auto key = std::make_pair(path, source.conditions_key(line));
    auto it = m_reasons.find(key);
    if (it == m_reasons.end()) {
      it = m_reasons.emplace(key, m_input.reasons->explain(source.conditions(line))).first;
    }
    return it->second;
  }
  const SourceText* get(const std::string& path) {
    auto it = m_texts.find(path);
    if (it == m_texts.end()) {
      std::unique_ptr<SourceText> text;
      if (m_input.read_source) {
        if (const auto content = m_input.read_source(path)) {
          text = std::make_unique<SourceText>(*content);
        }
      }
      it = m_texts.emplace(path, std::move(text)).first;
    }
    return it->second.get();
  }

 private:
  const CoverageInput& m_input;
  std::map<std::string, std::unique_ptr<SourceText>> m_texts;
  std::map<std::pair<std::string, SourceText::ConditionsKey>, std::optional<NeverCompiled>>
      m_reasons;
};

void judge_without_rows(LineVerdict& verdict, const SourceText* source, Sources& sources,
                        const CoverageInput& input) {
  const Position& at = verdict.position;
  if (source && at.line <= static_cast<int>(source->size()) && source->holds_no_code(at.line)) {
    verdict.status = LineStatus::k_no_code;
    verdict.note = "no code of its own (blank, comment, directive or brace)";
    return;
  }
  if (source && at.line <= static_cast<int>(source->size()) && input.reasons) {
    if (const auto& reason = sources.explain(at.path, *source, at.line)) {
      verdict.status = LineStatus::k_never_compiled;
      verdict.reason = reason;
      if (const std::size_t dropped = source->conditions_dropped(at.line)) {
        verdict.reason->details.push_back("and " + std::to_string(dropped) +
                                          " enclosing condition(s) nested past the " +
                                          std::to_string(k_max_conditions) + " judged");
      }
      return;
    }
  }
  if (!input.table->has_file(at.path)) {
    verdict.status = LineStatus::k_never_compiled;
    verdict.reason = NeverCompiled{at.path + ": no code from this file in this kernel",
                                   {"no line of " + at.path +
                                    " has a row in the line table (its object is not built, "
                                    "or nothing that is includes it)"},
                                   false};
    return;
  }
  if (source && at.line <= static_cast<int>(source->size())) {
    if (const auto function = source->function_at(at.line);
        function && !input.table->has_row_in(at.path, function->first, function->last)) {
      verdict.status = LineStatus::k_never_compiled;
      verdict.reason = NeverCompiled{
          function->name + "(): no code in this kernel",
          {"no line of " + function->name + "() (" + at.path + ":" +
           std::to_string(function->first) + "-" + std::to_string(function->last) +
           ") has a row: static or inline and never called, or every caller compiled out"},
          false};
      return;
    }
  }
  verdict.status = LineStatus::k_no_code;
  verdict.note = "no code of its own (a declaration, or a continuation of a statement)";
}

}  // namespace

std::vector<LineVerdict> judge_lines(const std::vector<ChangedLine>& lines,
                                     const CoverageInput& input) {
  Sources sources(input);
  std::vector<LineVerdict> verdicts;
  for (const ChangedLine* line : present_lines(lines)) {
    LineVerdict verdict;
    verdict.line = line;
    verdict.position = *line->at;
    const SourceText* source = sources.get(verdict.position.path);
    const int number = verdict.position.line;
    if (source && number <= static_cast<int>(source->size()) &&
        source->in_macro_definition(number)) {
      verdict.status = LineStatus::k_macro;
      verdict.note = "in a #define: its code is credited to the lines that expand it";
    } else if (const LineCode* code = input.table->find(verdict.position.path, number)) {
      verdict.units = code->units.size();
      if (input.executed) {
        for (const auto& range : code->ranges) {
          verdict.executions =
              std::max(verdict.executions, executions_in(*input.executed, range.begin, range.end));
        }
      }
      verdict.status = verdict.executions > 0 ? LineStatus::k_executed : LineStatus::k_compiled;
    } else {
      judge_without_rows(verdict, source, sources, input);
    }
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

CoverageSummary summarise(const std::vector<LineVerdict>& verdicts, bool ran) {
  CoverageSummary summary;
  summary.ran = ran;
  for (const auto& verdict : verdicts) {
    switch (verdict.status) {
      case LineStatus::k_executed:
        ++summary.executed;
        break;
      case LineStatus::k_compiled:
        ++summary.compiled;
        break;
      case LineStatus::k_never_compiled:
        ++summary.never_compiled;
        break;
      case LineStatus::k_no_code:
        ++summary.no_code;
        break;
      case LineStatus::k_macro:
        ++summary.macro;
        break;
    }
  }
  summary.changed = summary.executed + summary.compiled + summary.never_compiled;
  return summary;
}

std::string line_ranges(const std::vector<LineVerdict>& verdicts, LineStatus status) {
  std::map<std::string, std::vector<int>> files;
  std::vector<std::string> order;
  for (const auto& verdict : verdicts) {
    if (verdict.status == status) {
      if (!files.count(verdict.position.path)) {
        order.push_back(verdict.position.path);
      }
      files[verdict.position.path].push_back(verdict.position.line);
    }
  }
  std::string out;
  for (const auto& path : order) {
    auto& lines = files[path];
    std::sort(lines.begin(), lines.end());
    std::string ranges;
    for (std::size_t i = 0; i < lines.size();) {
      std::size_t j = i;
      while (j + 1 < lines.size() && lines[j + 1] <= lines[j] + 1) {
        ++j;
      }
      ranges += (ranges.empty() ? "" : ",") + std::to_string(lines[i]) +
                (lines[j] != lines[i] ? "-" + std::to_string(lines[j]) : "");
      i = j + 1;
    }
    out += (out.empty() ? "" : "; ") + path + ":" + ranges;
  }
  return out;
}

std::string summary_line(const std::vector<LineVerdict>& verdicts, const CoverageSummary& summary) {
  std::string out = "coverage: ";
  out += summary.ran
             ? std::to_string(summary.executed) + " of " + std::to_string(summary.changed) +
                   " changed lines executed"
             : std::to_string(summary.executed + summary.compiled) + " of " +
                   std::to_string(summary.changed) + " changed lines compiled (no run given)";
  // The reasons in the order they first come, each counted (an index:
  // as many distinct reasons as lines must not cost lines squared).
  std::vector<std::pair<std::string, int>> keys;
  std::map<std::string, std::size_t> index;
  for (const auto& verdict : verdicts) {
    if (verdict.status == LineStatus::k_never_compiled && verdict.reason) {
      const auto [it, added] = index.emplace(verdict.reason->key, keys.size());
      if (added) {
        keys.emplace_back(verdict.reason->key, 1);
      } else {
        ++keys[it->second].second;
      }
    }
  }
  out += "; " + std::to_string(summary.never_compiled) + " never compiled";
  if (!keys.empty()) {
    std::string list;
    for (const auto& [key, count] : keys) {
      list += (list.empty() ? "" : ", ") + key + (count > 1 ? " x" + std::to_string(count) : "");
    }
    out += " (" + list + ")";
  }
  if (summary.ran) {
    out += ", " + std::to_string(summary.compiled) + " compiled, never run";
    if (summary.compiled > 0) {
      out += " (" + line_ranges(verdicts, LineStatus::k_compiled) + ")";
    }
  }
  out += "; not counted: " + std::to_string(summary.no_code) + " without code of their own, " +
         std::to_string(summary.macro) + " in macro definitions";
  return out;
}

std::string line_table_text(const std::vector<LineVerdict>& verdicts) {
  std::string out;
  for (const auto& verdict : verdicts) {
    std::string detail;
    if (verdict.status == LineStatus::k_executed) {
      detail = "ran " + std::to_string(verdict.executions) + "x, " + std::to_string(verdict.units) +
               " unit(s)";
    } else if (verdict.status == LineStatus::k_compiled) {
      detail = std::to_string(verdict.units) + " unit(s)";
    } else if (verdict.reason) {
      detail = verdict.reason->key;
    }
    out += verdict_line(verdict, detail);
  }
  return out;
}

std::string verdict_line(const LineVerdict& verdict, const std::string& detail) {
  std::string text = verdict.line->text;
  if (text.size() > 60) {
    text = text.substr(0, 57) + "...";
  }
  return "  " + std::to_string(verdict.line->patch + 1) + " " + verdict.position.path + ":" +
         std::to_string(verdict.position.line) + " " + status_name(verdict.status) +
         (detail.empty() ? "" : " [" + detail + "]") + " | " + text + "\n";
}

results::CoverageCounts coverage_counts(const CoverageSummary& summary) {
  const auto count = [](std::size_t n) { return static_cast<int>(n); };
  return {count(summary.changed), count(summary.executed), count(summary.compiled),
          count(summary.never_compiled)};
}

results::CoverageRecord coverage_record(const std::vector<LineVerdict>& verdicts,
                                        const CoverageSummary& summary) {
  results::CoverageRecord record;
  for (const auto& verdict : verdicts) {
    results::CoverageLineRecord line;
    line.patch = static_cast<int>(verdict.line->patch + 1);
    line.file = verdict.position.path;
    line.line = verdict.position.line;
    line.status = status_name(verdict.status);
    line.modifies = verdict.line->modifies;
    line.text = verdict.line->text;
    line.units = verdict.units;
    line.executions = verdict.executions;
    if (verdict.reason) {
      line.reason = results::CoverageReasonRecord{verdict.reason->key, verdict.reason->details,
                                                  verdict.reason->impossible};
    }
    line.note = verdict.note;
    record.lines.push_back(std::move(line));
  }
  record.summary = coverage_counts(summary);
  record.no_code = static_cast<int>(summary.no_code);
  record.macro = static_cast<int>(summary.macro);
  record.ran = summary.ran;
  record.summary_line = summary_line(verdicts, summary);
  return record;
}

}  // namespace kseries::coverage
