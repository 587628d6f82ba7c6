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

// Materiality for a metric: 2 ticks for the jiffies-based pr_debug ms values.
stats::CompareOptions compare_options_for(const std::string& unit);

// The single-kernel table: per setup and metric, n, first, mean, median,
// trimmed mean, stddev, 95 % CI.
std::string render_summary_table(const std::string& kernel_name, const TimingData& data);

// The share of the whole bind spent in memmap_init_zone_device(), per setup
// (mean memmap_init_ns / mean bind_ns over the rebinds), when both exist.
std::map<std::string, double> memmap_share_of_bind(const TimingData& data);

}  // namespace kseries::cases
