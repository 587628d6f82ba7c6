#pragma once
// The memmap-timing case on the host: gather the guest's measurements of
// every boot per (setup, metric), first bind apart from the rebinds, and
// judge base against candidate the way the series' cover letter does (first
// bind apart, mean of the rebinds, relative change) with intervals and a
// rank test on top.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "guest/protocol.h"
#include "qemu/vm.h"
#include "stats/compare.h"
#include "stats/summary.h"

namespace kseries::cases {

struct MetricSamples {
  std::string unit;
  std::vector<double> first;               // the first bind of each boot
  std::vector<double> rebinds;             // every rebind of every boot
  std::vector<std::size_t> rebind_blocks;  // rebinds per boot, in order
  std::vector<double> probe;               // boot-time probe of the raw namespace
  double pages = 0;                        // pages per bind, as the kernel printed it
};

// (setup, metric) -> samples.
using TimingData = std::map<std::pair<std::string, std::string>, MetricSamples>;

void add_boot(TimingData& data, const std::vector<guest::Measurement>& measurements);

// Labels the guest's time measurements by the clock that made them. Under
// QEMU icount a guest "ns" is a virtual ns, i.e. one executed instruction:
// unit "vns" and metric memmap_init_ns -> memmap_init_vns; the pr_debug
// jiffies of the virtual timer become "vms" (memmap_init_vms). Wall-clock
// measurements are left as they are.
void label_clock(std::vector<guest::Measurement>& measurements, qemu::Clock clock);

// Whether UNIT is a virtual (instruction-driven) time: "vns" or "vms", or
// the memory clock's modelled ns "mns" (deterministic too).
bool is_virtual_unit(const std::string& unit);

// Materiality for a metric: 3 % of wall-clock time, 0.25 % of virtual
// time (instructions: deterministic, so a small change is real); 2 ticks
// for the jiffies-based pr_debug ms values under either clock. Virtual
// units also pool boots whose means agree within 0.1 %.
stats::CompareOptions compare_options_for(const std::string& unit);

// The options for comparing BASE with CANDIDATE on METRIC of one setup:
// the unit's, and the boots' blocks (a two-stage bootstrap). A virtual
// metric that varies between boots of one kernel (varies_between_boots(),
// or noisy within this boot: relative stddev above 1 % on either side),
// which one boot a side cannot show: with fewer than two boots on a side
// its change must clear k_between_boots, else it is unknown (and a second
// pair is booted).
stats::CompareOptions compare_options_for(const std::string& metric, const MetricSamples& base,
                                          const MetricSamples& candidate);

// The icount metrics measured to differ between single boots of one
// kernel even when each boot is quiet (k_between_boots' figures): the
// whole bind from user space (bind_vns) and memremap_pages() of
// device-private memory (memremap_vns: boots of one kernel at 0.01 %
// spread each lay 3 % apart, noisy ones up to 13 %).
bool varies_between_boots(const std::string& metric);

// How far apart the means of single boots of one kernel were, under icount,
// on the metrics that are noisy within a boot: the largest of every pair
// of boots of one kernel, setup and rebind count in this project's runs of
// 2026-12-06 (memmap-timing bind_vns: 921 pairs, median 1.3 %, p95 5.0 %,
// max 7.9 %; memmap-types memremap_vns: 238 pairs, median 3.4 %, p95 9.4 %,
// max 13.1 %), rounded up. The near-deterministic ones (memmap_init_vns:
// max 0.11 %) stay under the 0.25 % materiality instead.
inline constexpr double k_between_boots = 0.14;

// The (setup, metric) pairs, as "metric.setup", whose base-vs-candidate
// verdict is unknown among metrics in virtual ns: a near-deterministic one
// (relative stddev <= 1 % within a boot on both sides) that one pair does
// not decide, or a noisy one whose change one boot a side cannot tell from
// the variation between boots (k_between_boots): the reason to boot a
// second pair under icount.
std::vector<std::string> undecided_virtual_metrics(const TimingData& base,
                                                   const TimingData& candidate);

// The single-kernel table: per setup and metric, n, first, mean, median,
// trimmed mean, stddev, 95 % CI.
std::string render_summary_table(const std::string& kernel_name, const TimingData& data);

// The share of the whole bind spent in memmap_init_zone_device(), per setup
// (mean memmap_init_ns / mean bind_ns over the rebinds), when both exist.
std::map<std::string, double> memmap_share_of_bind(const TimingData& data);

}  // namespace kseries::cases
