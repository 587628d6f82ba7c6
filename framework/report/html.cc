#include "report/html.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "core/text.h"
#include "report/markup.h"
#include "report/svg_plot.h"
#include "stats/lkp_table.h"

namespace kseries::report {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_style = R"(
body { font-family: system-ui, sans-serif; margin: 0 2em 2em; color: #24292f; font-size: 14px; }
header.verdict { margin: 0 -2em 1em; padding: 1em 2em; color: #fff; }
header.pass { background: #1a7f37; } header.fail { background: #cf222e; }
header.incomplete { background: #9a6700; }
header h1 { margin: 0 0 .3em; font-size: 28px; } header p { margin: 0; }
h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.st { font-weight: bold; padding: 0 .4em; border-radius: 3px; color: #fff; white-space: nowrap; }
.st-pass, .st-expected { background: #1a7f37; } .st-fail, .st-error { background: #cf222e; }
.st-skip, .st-none, .st-interrupted { background: #6e7781; }
pre { background: #f6f8fa; padding: .6em; overflow-x: auto; font-size: 12px;
      white-space: pre-wrap; word-break: break-all; }
details { margin: .4em 0; } summary { cursor: pointer; }
svg.strip { display: block; margin: .3em 0 .8em; }
svg .plot-title { font: bold 12px sans-serif; } svg .label, svg .note { font: 11px sans-serif; }
svg .tick { font: 10px sans-serif; fill: #57606a; } svg .grid { stroke: #eaeef2; }
.muted { color: #57606a; }
td.cov-executed { background: #dafbe1; } td.cov-compiled { background: #fff8c5; }
td.cov-never-compiled { background: #ffebe9; } td.cov-no-code, td.cov-macro { color: #6e7781; }
td.src { font-family: ui-monospace, monospace; white-space: pre; font-size: 12px; }
)";

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string seconds_text(double seconds) {
  return seconds < 10 ? fixed(seconds, 1) + " s" : fixed(seconds, 0) + " s";
}

std::string percent(double relative) {
  const double p = 100 * relative;
  return (p >= 0 ? "+" : "") + fixed(p, std::abs(p) < 1 ? 3 : 1) + " %";
}

std::string badge(const std::string& status) {
  return "<span class=\"st st-" + escape(status) + "\">" + escape(status) + "</span>";
}

std::string badge(results::Outcome outcome) { return badge(results::outcome_name(outcome)); }

std::string anchor(const std::string& series) {
  std::string out = "s-";
  for (const char c : series) {
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  }
  return out;
}

// The verdict's word in lower case (its badge's class), "none" when not judged.
std::string verdict_status(const results::SeriesRecord& series) {
  if (!series.verdict) {
    return "none";
  }
  return results::verdict_key(series.verdict->outcome);
}

stats::Verdict verdict_of(const std::string& name) {
  if (name == "faster") {
    return stats::Verdict::k_faster;
  }
  if (name == "slower") {
    return stats::Verdict::k_slower;
  }
  if (name == "same") {
    return stats::Verdict::k_same;
  }
  return stats::Verdict::k_unknown;
}

Tone tone_of(const std::string& verdict) {
  return verdict == "faster"   ? Tone::k_faster
         : verdict == "slower" ? Tone::k_slower
                               : Tone::k_neutral;
}

// An interval both ends of which are known, else NaN at both.
stats::Interval interval_of(const std::optional<results::IntervalRecord>& interval) {
  return interval && !std::isnan(interval->low) && !std::isnan(interval->high)
             ? stats::Interval{interval->low, interval->high}
             : stats::Interval{NAN, NAN};
}

stats::Summary summary_of(const results::MetricRecord& samples) {
  const auto& s = samples.summary;
  stats::Summary summary;
  summary.n = s.n;
  summary.mean = s.mean.value_or(NAN);
  summary.median = s.median.value_or(NAN);
  summary.stddev = s.stddev.value_or(0);
  summary.mean_interval = interval_of(s.ci95);
  return summary;
}

class Page {
 public:
  Page(const RunRecord& run, const HtmlOptions& options) : m_run(run), m_dir(options.page_dir) {}

  std::string render() {
    const std::string verdict = overall();
    m_out += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n";
    m_out += "<meta charset=\"utf-8\"/>\n<title>" +
             escape("kseries " + m_run.kind + " " + m_run.name() + ": " + verdict) + "</title>\n";
    m_out += "<style>" + std::string(k_style) + "</style>\n</head>\n<body>\n";
    header(verdict);
    summary();
    for (const auto& series : m_run.series) {
      series_section(series);
    }
    timing();
    m_out += "<p class=\"muted\">Read from " +
             escape((m_run.dir / (m_run.kind == "gate" ? "gate.json" : "results.json")).string()) +
             " and the sessions' results.json; links are relative to this page.</p>\n";
    m_out += "</body>\n</html>\n";
    return m_out;
  }

 private:
  // The run did not reach its end: interrupted, or cut off unrecorded.
  bool cut_off() const {
    return m_run.outcome == results::Outcome::k_interrupted || !m_run.finished;
  }
  // Cut off without the interruption recorded: no verdict to show.
  bool incomplete() const {
    return m_run.outcome != results::Outcome::k_interrupted && !m_run.finished;
  }
  std::string overall() const {
    return incomplete() ? "INCOMPLETE" : results::verdict_word(m_run.outcome);
  }

  std::string link(const fs::path& target, const std::string& text) const {
    return "<a href=\"" + href(target, m_dir) + "\">" + escape(text) + "</a>";
  }

  void header(const std::string& verdict) {
    // From the typed outcome, not the word: EXPECTED (every failure the
    // expectations named) and SKIP are not failures of the run.
    const std::string cls = cut_off()                            ? "incomplete"
                            : results::is_failure(m_run.outcome) ? "fail"
                                                                 : "pass";
    m_out += "<header class=\"verdict " + cls + "\">\n<h1>" + escape(verdict) + ": kseries " +
             escape(m_run.kind) + "</h1>\n<p>run " + escape(m_run.name());
    if (!m_run.base_label.empty() || !m_run.base_commit.empty()) {
      m_out +=
          " · base " + escape(m_run.base_label) + " " + escape(m_run.base_commit.substr(0, 12));
    }
    if (!m_run.started.empty()) {
      m_out += " · started " + escape(m_run.started);
    }
    double total = 0;
    for (const auto& [stage, seconds] : m_run.time) {
      total += seconds;
    }
    if (total > 0) {
      m_out += " · " + escape(seconds_text(total));
    }
    m_out += "</p>\n</header>\n";
    if (cut_off()) {
      m_out +=
          "<p><strong>The run did not finish</strong>: the cells below are those it "
          "recorded; <code>kseries gate --resume " +
          escape(m_run.dir.string()) + "</code> runs the rest.</p>\n";
    }
  }

  void summary() {
    m_out +=
        "<h2>Series</h2>\n<table>\n<tr><th>series</th><th>verdict</th><th>cells</th>"
        "<th>why</th></tr>\n";
    for (const auto& series : m_run.series) {
      std::map<std::string, int> counts;
      for (const auto& cell : m_run.cells) {
        if (cell.series == series.series) {
          ++counts[results::outcome_name(cell.status)];
        }
      }
      std::string cells;
      for (const auto& [status, n] : counts) {
        cells += (cells.empty() ? "" : ", ") + std::to_string(n) + " " + status;
      }
      const bool known_bad = series.verdict && series.verdict->known_bad;
      m_out += "<tr><td><a href=\"#" + escape(anchor(series.series)) + "\">" +
               escape(series.series) + "</a>" +
               (known_bad ? " <span class=\"muted\">(known-bad)</span>" : "") + "</td><td>" +
               badge(verdict_status(series)) + "</td><td>" + escape(cells) + "</td><td>";
      for (const auto& reason : reasons(series)) {
        m_out += escape(results::reason_line(reason)) + "<br/>";
      }
      m_out += "</td></tr>\n";
    }
    m_out += "</table>\n";
    if (!m_run.time.empty()) {
      m_out += "<p class=\"muted\">time:";
      for (const auto& [stage, seconds] : m_run.time) {
        m_out += " " + escape(stage) + " " + escape(seconds_text(seconds)) + ";";
      }
      m_out += "</p>\n";
    }
  }

  static const std::vector<results::Reason>& reasons(const results::SeriesRecord& series) {
    static const std::vector<results::Reason> none;
    return series.verdict ? series.verdict->reasons : none;
  }

  void patches(const results::SeriesRecord& series) {
    if (series.patches.empty()) {
      return;
    }
    const RunCell* apply = m_run.find_cell(series.series, results::k_apply_cell);
    const RunCell* checkpatch = m_run.find_cell(series.series, results::k_checkpatch_cell);
    const RunCell* builds = m_run.find_cell(series.series, results::k_per_patch_cell);
    m_out +=
        "<h3>Patches</h3>\n<table>\n<tr><th>#</th><th>subject</th><th>apply</th>"
        "<th>checkpatch (errors, warnings, checks)</th><th>build" +
        (builds ? " (" + escape(builds->target()) + ")" : std::string()) +
        "</th><th>warnings (new)</th></tr>\n";
    for (std::size_t i = 0; i < series.patches.size(); ++i) {
      const auto& patch = series.patches[i];
      const int n = static_cast<int>(i + 1);
      const auto fact = [n](const RunCell* c, results::PatchFact what) {
        return c ? c->patch_fact(n, what) : std::string();
      };
      m_out += "<tr><td class=\"num\">" + std::to_string(i + 1) + "/" +
               std::to_string(series.patches.size()) + "</td><td>" +
               link(patch.file, patch.subject.empty() ? fs::path(patch.file).filename().string()
                                                      : patch.subject) +
               "</td><td>" + escape(fact(apply, results::PatchFact::k_apply)) + "</td><td>";
      if (!fact(checkpatch, results::PatchFact::k_errors).empty()) {
        m_out += escape(fact(checkpatch, results::PatchFact::k_errors) + ", " +
                        fact(checkpatch, results::PatchFact::k_warnings) + ", " +
                        fact(checkpatch, results::PatchFact::k_checks));
      } else {
        m_out += "<span class=\"muted\">" +
                 escape(checkpatch ? results::outcome_name(checkpatch->status) : "not run") +
                 "</span>";
      }
      m_out += "</td><td>";
      if (!fact(builds, results::PatchFact::k_build).empty()) {
        const std::string log = fact(builds, results::PatchFact::k_log);
        const std::string result = fact(builds, results::PatchFact::k_build);
        m_out += log.empty() ? escape(result) : link(log, result);
      } else {
        m_out += "<span class=\"muted\">" +
                 escape(builds ? "not built" : "no per-patch target in the matrix") + "</span>";
      }
      m_out += "</td><td>";
      if (!fact(builds, results::PatchFact::k_warnings).empty()) {
        m_out += escape(fact(builds, results::PatchFact::k_warnings));
        if (const auto added = fact(builds, results::PatchFact::k_new_warnings); !added.empty()) {
          m_out += " (" + escape(added) + " new)";
        }
      }
      m_out += "</td></tr>\n";
    }
    m_out += "</table>\n";
    if (checkpatch && !checkpatch->detail.empty()) {
      m_out += "<details><summary>checkpatch: " + escape(checkpatch->summary) + "</summary><pre>" +
               escape(checkpatch->detail) + "</pre></details>\n";
    }
  }

  void cells(const results::SeriesRecord& series) {
    m_out +=
        "<h3>Cells</h3>\n<table>\n<tr><th>cell</th><th>status</th><th>summary</th>"
        "<th>time</th><th>logs</th></tr>\n";
    for (const auto& cell : m_run.cells) {
      if (cell.series != series.series) {
        continue;
      }
      m_out += "<tr><td>" + escape(cell.cell) + "</td><td>" + badge(cell.status) + "</td><td>" +
               escape(cell.summary) + "</td><td class=\"num\">" +
               escape(seconds_text(cell.seconds)) + "</td><td>" +
               (cell.dir.empty() ? "" : link(cell.dir, "directory")) + "</td></tr>\n";
    }
    m_out += "</table>\n";
    for (const auto& cell : m_run.cells) {
      if (cell.series != series.series || cell.cell == results::CellId::checkpatch().to_string()) {
        continue;
      }
      const bool bad =
          cell.status == results::Outcome::k_fail || cell.status == results::Outcome::k_error;
      if (bad && !cell.detail.empty()) {
        m_out += "<details open=\"open\"><summary><strong>" + escape(cell.cell) +
                 "</strong>: " + escape(cell.summary) + "</summary><pre>" + escape(cell.detail) +
                 "</pre></details>\n";
      }
      if (cell.session) {
        session(cell, bad);
      }
      if (cell.coverage) {
        coverage(cell);
      }
    }
  }

  // The coverage stage: the summary, one line per coverage cell, and each
  // changed line marked per cell (executed, compiled, never compiled),
  // by file in the series' order; collapsed.
  void coverage(const RunCell& cell) {
    const results::CoverageRecord& c = *cell.coverage;
    m_out += "<details><summary>coverage of the changed lines: " +
             escape(c.summary_line.value_or(cell.summary)) + "</summary>\n<ul>\n";
    for (const auto& one : c.cells) {
      m_out += "<li>" + escape(one.line) + "</li>\n";
    }
    m_out += "</ul>\n<table>\n<tr><th>patch</th><th>line</th><th>status</th>";
    for (const auto& one : c.cells) {
      m_out += "<th>" + escape(one.cell) + "</th>";
    }
    m_out += "<th>why</th><th>text</th></tr>\n";
    std::string file;
    for (const auto& line : c.lines) {
      if (line.file != file) {
        file = line.file;
        m_out += "<tr><th colspan=\"" + std::to_string(c.cells.size() + 5) + "\">" + escape(file) +
                 "</th></tr>\n";
      }
      m_out += "<tr><td class=\"num\">" + std::to_string(line.patch) + "</td><td class=\"num\">" +
               std::to_string(line.line) + "</td><td class=\"cov-" + escape(line.status) + "\">" +
               escape(line.status) + "</td>";
      for (const auto& one : c.cells) {
        const auto has = [](const std::vector<std::string>& names, const std::string& name) {
          return std::find(names.begin(), names.end(), name) != names.end();
        };
        const std::string mark = line.status == "no-code" || line.status == "macro" ? ""
                                 : has(line.executed_in, one.cell)                  ? "executed"
                                 : has(line.compiled_in, one.target.value_or(""))
                                     ? "compiled"
                                     : "never-compiled";
        m_out += "<td class=\"cov-" + mark + "\">" + escape(mark) + "</td>";
      }
      m_out += "<td>" + escape(line.reason ? line.reason->key : line.note) +
               "</td><td class=\"src\">" + escape(line.text) + "</td></tr>\n";
    }
    m_out += "</table>\n</details>\n";
  }

  // A booted cell: its boots, its oracle verdicts, its comparison table.
  void session(const RunCell& cell, bool open) {
    const results::SessionRecord& s = *cell.session;
    m_out += std::string("<details") + (open ? " open=\"open\"" : "") + "><summary>" +
             escape(cell.cell) + ": boots" + (s.oracle.empty() ? "" : ", oracle verdicts") +
             (s.comparison.empty() ? "" : ", timing table") + " <span class=\"muted\">(" +
             escape(s.accel_note) + "; clock " + escape(s.clock) +
             (s.memory_model.empty() ? std::string() : "; memory model " + escape(s.memory_model)) +
             ")</span></summary>\n";
    m_out +=
        "<table>\n<tr><th>kernel</th><th>boot</th><th>seconds</th><th>QEMU</th>"
        "<th>findings and problems</th><th>logs</th></tr>\n";
    for (const auto& boot : s.boots) {
      std::string problems;
      for (const auto& f : boot.findings) {
        problems += escape(f.kind + ": " + f.title) + "<br/>";
      }
      for (const auto& p : boot.problems) {
        problems += escape(p) + "<br/>";
      }
      m_out += "<tr><td>" + escape(boot.kernel) + "</td><td class=\"num\">#" +
               std::to_string(boot.round) + "</td><td class=\"num\">" +
               escape(fixed(boot.seconds, 1)) + "</td><td>" + escape(boot.qemu) +
               (boot.powered_off ? "" : ", <strong>did not power off</strong>") + "</td><td>" +
               (problems.empty() ? "none" : problems) + "</td><td>";
      for (const auto& [log, file] :
           {std::pair{"console", &boot.console}, std::pair{"protocol", &boot.protocol}}) {
        if (!file->empty()) {
          m_out += link(*file, log) + " ";
        }
      }
      m_out += "</td></tr>\n";
    }
    m_out += "</table>\n";
    if (!s.oracle.empty()) {
      m_out +=
          "<table>\n<tr><th>kernel</th><th>setup</th><th>oracle</th><th>verdict "
          "(the first differing field and PFN)</th></tr>\n";
      for (const auto& v : s.oracle) {
        m_out += "<tr><td>" + escape(v.kernel) + "</td><td>" +
                 escape(v.setup + " #" + std::to_string(v.round)) + "</td><td>" + badge(v.status) +
                 "</td><td>" + escape(v.summary) + "</td></tr>\n";
      }
      m_out += "</table>\n";
    }
    if (!s.comparison.empty()) {
      m_out += "<pre>" + escape(lkp_table(cell)) + "</pre>\n";
    }
    m_out += "</details>\n";
  }

  // The comparison as the text report prints it (stats/lkp_table.h), from
  // the figures results.json keeps.
  std::string lkp_table(const RunCell& cell) const {
    const std::string baseline = cell.baseline_kernel();
    const std::string subject = cell.subject_kernel();
    std::vector<stats::LkpRow> rows;
    for (const auto& c : cell.session->comparison) {
      stats::Comparison comparison;
      if (const auto* base_samples = cell.samples(baseline, c.setup, c.metric)) {
        comparison.base = summary_of(*base_samples);
      }
      if (const auto* subject_samples = cell.samples(subject, c.setup, c.metric)) {
        comparison.candidate = summary_of(*subject_samples);
      }
      comparison.ratio = c.ratio.value_or(NAN);
      comparison.relative_change = c.relative_change.value_or(NAN);
      comparison.ratio_interval = interval_of(c.ci95);
      comparison.rank_test.p = c.p.value_or(1);
      comparison.verdict = verdict_of(c.verdict);
      comparison.reason = c.reason;
      rows.push_back({c.metric + "." + c.setup, comparison});
    }
    return stats::render_lkp_table(baseline, subject, rows);
  }

  void series_section(const results::SeriesRecord& series) {
    m_out += "<section id=\"" + escape(anchor(series.series)) + "\">\n<h2>" +
             escape(series.series) + " " + badge(verdict_status(series)) + "</h2>\n";
    if (!series.source.empty()) {
      m_out += "<p class=\"muted\">from " + escape(series.source) + "</p>\n";
    }
    if (!reasons(series).empty()) {
      m_out += "<ul>\n";
      for (const auto& reason : reasons(series)) {
        m_out += "<li>" + escape(results::reason_line(reason)) + "</li>\n";
      }
      m_out += "</ul>\n";
    }
    patches(series);
    cells(series);
    m_out += "</section>\n";
  }

  // One plot per (target and case, metric, setup): the base's rebinds, then
  // each series' with its change against the base booted beside it.
  void timing() {
    struct Group {
      std::vector<const RunCell*> cells;
    };
    std::map<std::string, Group> groups;  // "pmem memmap-timing" -> its cells, series order
    for (const auto& cell : m_run.cells) {
      if (cell.session && !cell.session->comparison.empty()) {
        groups[cell.target() + " " + cell.test_case()].cells.push_back(&cell);
      }
    }
    if (groups.empty()) {
      return;
    }
    m_out +=
        "<section id=\"timing\">\n<h2>Timing: base against each revision</h2>\n"
        "<p class=\"muted\">Every dot is one rebind; the tick is the mean, the bar its 95 % "
        "interval; the axis starts at zero. The change beside each revision is against the "
        "base booted beside it (its interval is of the ratio); the base row shows the base "
        "booted with the first revision.</p>\n";
    for (const auto& [name, group] : groups) {
      m_out += "<h3>" + escape(name) + "</h3>\n";
      // metric -> setups; the memmap init time first (what the series
      // changes), then the rest by name.
      std::map<std::pair<int, std::string>, std::vector<std::string>> metrics;
      for (const RunCell* cell : group.cells) {
        for (const auto& c : cell->session->comparison) {
          const int rank = !starts_with(c.metric, "memmap_init_") ? 2
                           : c.metric.ends_with("ns")             ? 0
                                                                  : 1;
          auto& setups = metrics[{rank, c.metric}];
          if (std::find(setups.begin(), setups.end(), c.setup) == setups.end()) {
            setups.push_back(c.setup);
          }
        }
      }
      for (const auto& [metric, setups] : metrics) {
        for (const auto& setup : setups) {
          plot(group.cells, metric.second, setup);
        }
      }
    }
    m_out += "</section>\n";
  }

  void plot(const std::vector<const RunCell*>& cells, const std::string& metric,
            const std::string& setup) {
    StripPlot plot;
    plot.title = setup + " " + metric;
    bool base_added = false;
    for (const RunCell* cell : cells) {
      const std::string baseline = cell->baseline_kernel();
      const auto* base = cell->samples(baseline, setup, metric);
      const auto* subject = cell->samples(cell->subject_kernel(), setup, metric);
      if (!subject) {
        continue;
      }
      const auto row_of = [](const std::string& label, const results::MetricRecord& samples) {
        StripRow row;
        row.label = label;
        row.samples = samples.rebinds;
        const auto summary = summary_of(samples);
        row.mean = summary.mean;
        row.low = summary.mean_interval.low;
        row.high = summary.mean_interval.high;
        return row;
      };
      plot.unit = subject->unit;
      if (base && !base_added) {
        auto row = row_of(baseline, *base);
        row.tone = Tone::k_base;
        plot.rows.push_back(row);
        base_added = true;
      }
      auto row = row_of(cell->subject_kernel(), *subject);
      for (const auto& c : cell->session->comparison) {
        if (c.setup == setup && c.metric == metric) {
          row.tone = tone_of(c.verdict);
          row.note = percent(c.relative_change.value_or(NAN));
          if (const auto ci = interval_of(c.ci95); !std::isnan(ci.low)) {
            row.note += " [" + percent(ci.low - 1) + ", " + percent(ci.high - 1) + "]";
          }
          row.note += " " + c.verdict;
        }
      }
      plot.rows.push_back(row);
    }
    if (!plot.rows.empty()) {
      m_out += render_strip_plot(plot) + "\n";
    }
  }

  const RunRecord& m_run;
  fs::path m_dir;
  std::string m_out;
};

}  // namespace

std::string render_html(const RunRecord& run, const HtmlOptions& options) {
  return Page(run, options).render();
}

}  // namespace kseries::report
