#include "gate/per_patch_timing.h"

#include <cstdio>
#include <set>

#include "stats/compare.h"

namespace kseries::gate {

namespace {

std::string pick_metric(const cases::TimingData& base) {
  for (const char* metric : {"memmap_init_mns", "memmap_init_vns", "memmap_init_ns"}) {
    for (const auto& [key, samples] : base) {
      if (key.second == metric && !samples.rebinds.empty()) {
        return metric;
      }
    }
  }
  return "";
}

// "-11.0% [-11.1, -10.9]" or "n/a".
std::string change(const cases::TimingData& from, const cases::TimingData& to,
                   const std::string& setup, const std::string& metric, double* relative) {
  const auto a = from.find({setup, metric});
  const auto b = to.find({setup, metric});
  if (a == from.end() || b == to.end() || a->second.rebinds.empty() || b->second.rebinds.empty()) {
    return "n/a";
  }
  auto options = cases::compare_options_for(metric, a->second, b->second);
  options.bootstrap.resamples = 2000;
  const auto c = stats::compare(a->second.rebinds, b->second.rebinds, options);
  if (relative) {
    *relative = c.relative_change;
  }
  char text[96];
  std::snprintf(text, sizeof text, "%+.1f%% [%+.1f, %+.1f] %s", c.relative_change * 100,
                (c.ratio_interval.low - 1) * 100, (c.ratio_interval.high - 1) * 100,
                std::string(stats::verdict_name(c.verdict)).c_str());
  return text;
}

}  // namespace

PerPatchTable render_per_patch_timing(const std::vector<PrefixTiming>& prefixes) {
  PerPatchTable table;
  if (prefixes.size() < 2) {
    table.text = "per-patch timing: no patch\n";
    return table;
  }
  table.metric = pick_metric(prefixes.front().timing);
  if (table.metric.empty()) {
    table.text = "per-patch timing: the base has no memmap_init_zone_device() timing\n";
    return table;
  }
  std::set<std::string> setups;
  for (const auto& [key, samples] : prefixes.front().timing) {
    if (key.second == table.metric && !samples.rebinds.empty() && key.first != "boot-probe") {
      setups.insert(key.first);
    }
  }
  std::string& out = table.text;
  out = "per-patch timing (" + table.metric + ", mean of the rebinds; change [95% CI] verdict)\n";
  for (const auto& setup : setups) {
    out += "  " + setup + "\n";
    char line[512];
    std::snprintf(line, sizeof line, "    %-52s %-36s %s\n", "patch", "against the base",
                  "against the patch before");
    out += line;
    for (std::size_t i = 1; i < prefixes.size(); ++i) {
      double relative = 0;
      const auto vs_base = change(prefixes.front().timing, prefixes[i].timing, setup, table.metric,
                                  i + 1 == prefixes.size() ? &relative : nullptr);
      const auto vs_previous =
          change(prefixes[i - 1].timing, prefixes[i].timing, setup, table.metric, nullptr);
      std::snprintf(line, sizeof line, "    %-52.52s %-36s %s\n", prefixes[i].label.c_str(),
                    vs_base.c_str(), vs_previous.c_str());
      out += line;
      if (i + 1 == prefixes.size() && vs_base != "n/a") {
        char tip[96];
        std::snprintf(tip, sizeof tip, "%s %+.1f%%", setup.c_str(), relative * 100);
        table.tip_changes.push_back(tip);
      }
    }
  }
  return table;
}

}  // namespace kseries::gate
