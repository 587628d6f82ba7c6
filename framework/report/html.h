#pragma once
// One self-contained HTML page per run (no script, no external file or
// font; plots are inline SVG), read back from the run directory
// (report/run_record.h), for a reviewer to open:
//  - the verdict on top, then one line per series revision and why;
//  - per series: its patches (apply, checkpatch, the per-patch build and
//    its warnings, the build log), its cells (status, summary, time, logs),
//    each failure's text (the oracle's first differing field and PFN), each
//    boot (findings, console and protocol logs) and oracle verdict, and the
//    LKP-style "%change ±%stddev" table of every timing cell;
//  - timing: strip plots of the per-rebind samples per setup and metric,
//    the base against each revision, with the mean's 95 % interval.
// Every string of the run is escaped (report/markup.h); the page is
// well-formed XML as well as HTML.

#include <filesystem>
#include <string>

#include "report/run_record.h"

namespace kseries::report {

struct HtmlOptions {
  // The directory the page is written to: links to logs are relative to it.
  std::filesystem::path page_dir;
};

std::string render_html(const RunRecord& run, const HtmlOptions& options);

}  // namespace kseries::report
