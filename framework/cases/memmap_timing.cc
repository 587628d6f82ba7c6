#include "cases/memmap_timing.h"

#include <cmath>
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

void label_clock(std::vector<guest::Measurement>& measurements, qemu::Clock clock) {
  if (!qemu::counts_instructions(clock)) {
    return;
  }
  for (auto& m : measurements) {
    if (m.unit != "ns" && m.unit != "ms") {
      continue;
    }
    const std::string suffix = "_" + m.unit;
    if (m.metric.size() > suffix.size() &&
        m.metric.compare(m.metric.size() - suffix.size(), suffix.size(), suffix) == 0) {
      m.metric = m.metric.substr(0, m.metric.size() - m.unit.size()) + "v" + m.unit;
    } else {
      m.metric += "_v" + m.unit;
    }
    m.unit = "v" + m.unit;
  }
}

bool is_virtual_unit(const std::string& unit) {
  return unit == "vns" || unit == "vms" || unit == "mns";
}

stats::CompareOptions compare_options_for(const std::string& unit) {
  stats::CompareOptions options;
  if (unit == "ms" || unit == "vms") {
    options.min_absolute = 2;  // the pr_debug timer is jiffies: 1 ms at HZ=1000
  }
  if (is_virtual_unit(unit)) {
    options.min_relative = 0.0025;
    options.boot_agreement = 0.001;
  }
  return options;
}

// Relative stddev within a boot below which an icount metric counts as
// deterministic (memmap_init_vns measures ~0.02 %; the whole bind ~3 %).
constexpr double k_deterministic_spread = 0.01;

namespace {

double spread(const std::vector<double>& values) {
  const auto summary = stats::summarize(values);
  return summary.mean == 0 ? 0.0 : summary.stddev / std::abs(summary.mean);
}

}  // namespace

bool varies_between_boots(const std::string& metric) {
  return metric == "bind_vns" || metric == "memremap_vns";
}

stats::CompareOptions compare_options_for(const std::string& metric, const MetricSamples& base,
                                          const MetricSamples& candidate) {
  auto options = compare_options_for(base.unit);
  options.base_blocks = base.rebind_blocks;
  options.candidate_blocks = candidate.rebind_blocks;
  const bool noisy = varies_between_boots(metric) ||
                     spread(base.rebinds) > k_deterministic_spread ||
                     spread(candidate.rebinds) > k_deterministic_spread;
  const bool one_boot_a_side = base.rebind_blocks.size() < 2 || candidate.rebind_blocks.size() < 2;
  if (is_virtual_unit(base.unit) && noisy && one_boot_a_side) {
    options.between_boots = k_between_boots;
  }
  return options;
}

std::vector<std::string> undecided_virtual_metrics(const TimingData& base,
                                                   const TimingData& candidate) {
  std::vector<std::string> undecided;
  for (const auto& [key, samples] : base) {
    const auto other = candidate.find(key);
    if ((samples.unit != "vns" && samples.unit != "mns") || other == candidate.end() ||
        samples.rebinds.empty()) {
      continue;
    }
    // A near-deterministic metric whose one pair does not decide, and a
    // noisy one whose separated change lies within what single boots
    // differ by: a second pair decides (its boots are the units then). A
    // noisy metric whose interval is too wide for any verdict is not
    // decided by one more boot either.
    auto options = compare_options_for(key.second, samples, other->second);
    options.bootstrap.resamples = 2000;  // a decision to boot again, not the report
    const auto unknown = [&] {
      return stats::compare(samples.rebinds, other->second.rebinds, options).verdict ==
             stats::Verdict::k_unknown;
    };
    const bool noisy = options.between_boots > 0;
    if (!unknown()) {
      continue;
    }
    options.between_boots = 0;
    if (!noisy || !unknown()) {
      undecided.push_back(key.second + "." + key.first);
    }
  }
  return undecided;
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
