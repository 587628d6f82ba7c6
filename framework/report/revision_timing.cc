#include "report/revision_timing.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace kseries::report {

namespace {

std::string percent(double fraction) {
  if (!std::isfinite(fraction)) {
    return "n/a";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", fraction * 100);
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, std::fabs(value) >= 1000 ? "%.0f" : "%.4g", value);
  return text;
}

}  // namespace

std::vector<RevisionTiming> revision_timings(const RunRecord& run, const std::string& from,
                                             const std::string& to) {
  std::vector<RevisionTiming> out;
  for (const auto& newer : run.cells) {
    if (newer.series != to || !newer.session) {
      continue;
    }
    const RunCell* older = run.find_cell(from, newer.cell);
    if (!older || !older->session) {
      continue;
    }
    for (const auto& c : newer.session->comparison) {
      const auto* to_samples = newer.samples(newer.subject_kernel(), c.setup, c.metric);
      const auto* from_samples = older->samples(older->subject_kernel(), c.setup, c.metric);
      if (!to_samples || !from_samples) {
        continue;
      }
      // Times only: a count (page_ref_set events) is evidence, not a speed.
      const std::string& unit = to_samples->unit;
      if (unit != "ns" && unit != "us" && unit != "ms" && unit != "vns" && unit != "vms" &&
          unit != "mns") {
        continue;
      }
      if (from_samples->rebinds.empty() || to_samples->rebinds.empty()) {
        continue;
      }
      out.push_back({newer.cell, c.setup, c.metric, unit,
                     stats::compare(from_samples->rebinds, to_samples->rebinds)});
    }
  }
  return out;
}

std::string render_revision_timings(const std::vector<RevisionTiming>& timings) {
  if (timings.empty()) {
    return "";
  }
  std::ostringstream out;
  out << "  timing, the newer revision against the older (per rebind, samples of each "
         "revision's own boot):\n";
  for (const auto& t : timings) {
    const auto& c = t.comparison;
    out << "    " << t.cell << " " << t.setup << " " << t.metric << ": "
        << percent(c.relative_change) << " [" << percent(c.ratio_interval.low - 1) << ", "
        << percent(c.ratio_interval.high - 1) << "] " << stats::verdict_name(c.verdict) << " ("
        << c.base.n << " and " << c.candidate.n << " rebinds, means " << number(c.base.mean)
        << " and " << number(c.candidate.mean) << (t.unit.empty() ? "" : " " + t.unit) << ")\n";
  }
  return out.str();
}

}  // namespace kseries::report
