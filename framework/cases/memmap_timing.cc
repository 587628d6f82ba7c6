#include "cases/memmap_timing.h"

#include <cstdio>
#include <numeric>

namespace kseries::cases {

void add_boot(TimingData& data, const std::vector<guest::Measurement>& measurements) {
  std::map<std::pair<std::string, std::string>, std::size_t> rebinds_before;
  for (const auto& m : measurements) {
    if (!rebinds_before.count({m.setup, m.metric})) {
      rebinds_before[{m.setup, m.metric}] = data[{m.setup, m.metric}].rebinds.size();
    }
  }
  for (const auto& m : measurements) {
    auto& samples = data[{m.setup, m.metric}];
    samples.unit = m.unit;
    if (m.kind == "probe" || m.setup == "boot-probe") {
      samples.probe.push_back(m.value);
    } else if (m.kind == "first" || (m.kind.empty() && m.iter == 1)) {
      samples.first.push_back(m.value);
    } else {
      samples.rebinds.push_back(m.value);
    }
    if (auto it = m.extra.find("pages"); it != m.extra.end()) {
      samples.pages = std::atof(it->second.c_str());
    }
  }
  // This boot's rebinds are one block: they share the boot's conditions.
  for (const auto& [key, before] : rebinds_before) {
    auto& samples = data[key];
    if (samples.rebinds.size() > before) {
      samples.rebind_blocks.push_back(samples.rebinds.size() - before);
    }
  }
}

stats::CompareOptions compare_options_for(const std::string& unit) {
  stats::CompareOptions options;
  if (unit == "ms") {
    options.min_absolute = 2;  // the pr_debug timer is jiffies: 1 ms at HZ=1000
  }
  return options;
}

std::string render_summary_table(const std::string& kernel_name, const TimingData& data) {
  std::string out = "kernel " + kernel_name + "\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-14s %-15s %5s %10s %10s %10s %10s %9s  %s\n", "setup",
                "metric", "n", "first", "mean", "median", "trimmed", "stddev", "95% CI of mean");
  out += line;
  for (const auto& [key, samples] : data) {
    if (samples.rebinds.empty() && samples.first.empty()) {
      continue;
    }
    const auto summary = stats::summarize(samples.rebinds);
    const double first = samples.first.empty()
                             ? 0
                             : std::accumulate(samples.first.begin(), samples.first.end(), 0.0) /
                                   static_cast<double>(samples.first.size());
    std::snprintf(line, sizeof line,
                  "  %-14s %-15s %5zu %10.4g %10.4g %10.4g %10.4g %9.3g  [%.4g, %.4g] %s\n",
                  key.first.c_str(), key.second.c_str(), summary.n, first, summary.mean,
                  summary.median, summary.trimmed_mean, summary.stddev, summary.mean_interval.low,
                  summary.mean_interval.high, samples.unit.c_str());
    out += line;
  }
  return out;
}

std::map<std::string, double> memmap_share_of_bind(const TimingData& data) {
  std::map<std::string, double> shares;
  for (const auto& [key, samples] : data) {
    if (key.second != "memmap_init_ns" || samples.rebinds.empty()) {
      continue;
    }
    auto bind = data.find({key.first, "bind_ns"});
    if (bind == data.end() || bind->second.rebinds.empty()) {
      continue;
    }
    const double memmap = std::accumulate(samples.rebinds.begin(), samples.rebinds.end(), 0.0) /
                          static_cast<double>(samples.rebinds.size());
    const double whole =
        std::accumulate(bind->second.rebinds.begin(), bind->second.rebinds.end(), 0.0) /
        static_cast<double>(bind->second.rebinds.size());
    if (whole > 0) {
      shares[key.first] = memmap / whole;
    }
  }
  return shares;
}

}  // namespace kseries::cases
