#pragma once
// Timing of one revision against another (v6 -> v10), from the samples the
// gate's timing cells kept: per cell both revisions ran, per setup and
// metric, the newer revision's rebinds against the older one's, judged by
// the same statistics as base against candidate (stats/compare.h). Each
// revision was booted beside the base in its own cell; the base is the
// anchor that makes the two comparable, this is the direct ratio a reviewer
// asks for ("what did v10 change against v6?").

#include <string>
#include <vector>

#include "report/run_record.h"
#include "stats/compare.h"

namespace kseries::report {

struct RevisionTiming {
  std::string cell;  // "pmem memmap-timing"
  std::string setup;
  std::string metric;
  std::string unit;
  stats::Comparison comparison;  // base = the older revision, candidate = the newer
};

// Every timing pair of series FROM and TO in RUN: the cells both have with a
// comparison section, each setup and metric both subject kernels measured.
// A cell or setup only one side has is left out (the cell transitions show
// it).
std::vector<RevisionTiming> revision_timings(const RunRecord& run, const std::string& from,
                                             const std::string& to);

// "  timing (TO against FROM, per rebind): cell setup metric ... ratio [interval] verdict"
std::string render_revision_timings(const std::vector<RevisionTiming>& timings);

}  // namespace kseries::report
