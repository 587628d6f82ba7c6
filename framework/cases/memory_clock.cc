#include "cases/memory_clock.h"

#include <cstdio>
#include <map>

namespace kseries::cases {

namespace {

// How many calls of the function one measurement stands for; 0 when it is
// not one that a window belongs to.
int calls_of(const guest::Measurement& m) {
  const bool probe = m.kind == "probe" || m.setup == "boot-probe";
  if (probe) {
    return m.metric == "memmap_init_ms" ? 1 : 0;  // one pr_debug line per call
  }
  if (m.metric != "memmap_init_ns") {
    return 0;
  }
  const auto it = m.extra.find("calls");
  if (it == m.extra.end()) {
    return 1;
  }
  try {
    const int calls = std::stoi(it->second);
    return calls > 0 && calls < 100000 ? calls : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

// A rebind's sample: not the first bind, not the boot-time probe.
bool is_rebind(const guest::Measurement& m) {
  const bool probe = m.kind == "probe" || m.setup == "boot-probe";
  const bool first = m.kind == "first" || (m.kind.empty() && m.iter == 1);
  return !probe && !first;
}

void add_windows(Traffic& t, const std::vector<memcost::WindowCost>& windows, std::size_t from,
                 int calls) {
  ++t.rebinds;
  for (int c = 0; c < calls; ++c) {
    const auto& w = windows[from + static_cast<std::size_t>(c)];
    ++t.windows;
    t.insns += w.insns;
    t.dram_read += w.dram_read;
    t.dram_write += w.dram_write;
    t.nt_stores += w.nt_stores;
  }
}

}  // namespace

MemoryCosts memory_costs(const std::vector<guest::Measurement>& measurements,
                         const memcost::Records& records, const std::vector<MemoryModel>& models) {
  MemoryCosts out;
  for (const auto& problem : records.problems) {
    out.problems.push_back("memory clock: plugin records: " + problem);
  }
  if (!records.header) {
    out.problems.push_back("memory clock: the plugin left no records (it did not load?)");
    return out;
  }
  if (models.empty()) {
    return out;
  }
  std::size_t available = 0;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const auto it = records.windows.find(models[i].label);
    const std::size_t n = it == records.windows.end() ? 0 : it->second.size();
    if (i == 0) {
      available = n;
    } else if (n != available) {
      out.problems.push_back("memory clock: model " + models[i].label + " has " +
                             std::to_string(n) + " windows, " + models[0].label + " " +
                             std::to_string(available));
      return out;
    }
  }
  std::size_t next = 0;
  for (const auto& m : measurements) {
    const int calls = calls_of(m);
    if (calls < 0) {
      out.problems.push_back("memory clock: " + m.setup + " iter " + std::to_string(m.iter) +
                             ": unreadable calls=" + m.extra.at("calls"));
      return out;
    }
    if (calls == 0) {
      continue;
    }
    if (next + static_cast<std::size_t>(calls) > available) {
      out.problems.push_back(
          "memory clock: the guest measured more calls of "
          "memmap_init_zone_device() than the plugin saw (" +
          std::to_string(available) + " windows)");
      return out;
    }
    for (std::size_t i = 0; i < models.size(); ++i) {
      const auto& windows = records.windows.at(models[i].label);
      double ns = 0;
      for (int c = 0; c < calls; ++c) {
        ns += memcost::modelled_ns(models[i].profile, windows[next + c]);
      }
      guest::Measurement cost = m;
      cost.metric = i == 0 ? "memmap_init_mns" : "memmap_init_mns_" + models[i].label;
      cost.unit = "mns";
      cost.value = ns;
      cost.extra.erase("line");
      out.added.push_back(std::move(cost));
    }
    for (int c = 0; c < calls; ++c) {
      out.owners.emplace_back(m.setup, m.iter);
    }
    if (is_rebind(m)) {
      add_windows(out.traffic[m.setup], records.windows.at(models[0].label), next, calls);
    }
    next += static_cast<std::size_t>(calls);
  }
  if (next != available) {
    out.problems.push_back("memory clock: the plugin saw " + std::to_string(available) +
                           " calls of memmap_init_zone_device(), the guest measured " +
                           std::to_string(next) + ": the windows cannot be matched to binds");
  }
  if (records.windows_seen && records.windows_seen != available) {
    out.problems.push_back("memory clock: the plugin counted " +
                           std::to_string(records.windows_seen) + " windows, wrote " +
                           std::to_string(available));
  }
  return out;
}

void add_traffic(TrafficData& into, const TrafficData& boot) {
  for (const auto& [setup, t] : boot) {
    auto& sum = into[setup];
    sum.rebinds += t.rebinds;
    sum.windows += t.windows;
    sum.insns += t.insns;
    sum.dram_read += t.dram_read;
    sum.dram_write += t.dram_write;
    sum.nt_stores += t.nt_stores;
  }
}

std::string render_traffic_table(const std::string& kernel, const TrafficData& traffic,
                                 const memcost::MachineProfile& profile) {
  std::string out = "memory traffic per rebind, " + kernel + " (mean of the rebinds; " +
                    profile.name +
                    ": compute = instructions / (IPC x GHz), memory = DRAM "
                    "bytes / bandwidth)\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-14s %7s %14s %12s %12s %14s %11s %11s  %s\n", "setup",
                "rebinds", "instructions", "DRAM read", "DRAM written", "NT stores", "compute",
                "memory", "bound");
  out += line;
  for (const auto& [setup, t] : traffic) {
    if (t.rebinds == 0) {
      continue;
    }
    const double n = static_cast<double>(t.rebinds);
    memcost::WindowCost mean;
    mean.insns = static_cast<std::uint64_t>(static_cast<double>(t.insns) / n);
    mean.dram_read = static_cast<std::uint64_t>(static_cast<double>(t.dram_read) / n);
    mean.dram_write = static_cast<std::uint64_t>(static_cast<double>(t.dram_write) / n);
    const auto [compute, memory] = memcost::model_terms(profile, mean);
    std::snprintf(line, sizeof line,
                  "  %-14s %7llu %12.4g M %9.4g MB %9.4g MB %12.4g M %8.4g us %8.4g us  %s\n",
                  setup.c_str(), static_cast<unsigned long long>(t.rebinds),
                  static_cast<double>(mean.insns) / 1e6, static_cast<double>(mean.dram_read) / 1e6,
                  static_cast<double>(mean.dram_write) / 1e6,
                  static_cast<double>(t.nt_stores) / n / 1e6, compute / 1e3, memory / 1e3,
                  compute >= memory ? "compute" : "memory");
    out += line;
  }
  return out;
}

}  // namespace kseries::cases
