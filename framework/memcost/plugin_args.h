#pragma once
// The memcost plugin on QEMU's command line: where the plugin is, and the
// -plugin argument for one boot (the kernel's symbols, the models, the
// records file).

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "memcost/profile.h"
#include "memcost/symbols.h"

namespace kseries::memcost {

// $KSERIES_MEMCOST_PLUGIN, else the plugin built beside this binary.
// Error(k_infrastructure) when it does not exist.
std::filesystem::path plugin_path();

struct PluginRequest {
  std::filesystem::path plugin;
  std::filesystem::path records;      // the plugin appends its records here
  std::filesystem::path irq_entries;  // written here: one hex address a line
  KernelSymbols symbols;
  // (label, profile): the first is the clock's, the others a sweep.
  std::vector<std::pair<std::string, MachineProfile>> models;
  bool order = true;            // the ordering tracker
  unsigned stack_size = 16384;  // the kernel's THREAD_SIZE (32 KiB with KASAN)
};

// Writes REQUEST.irq_entries and returns "file=PLUGIN,out=...,entry=0x...,..."
// for QEMU's -plugin. Error(k_usage) for a path QEMU's option parser would
// split (a comma in it).
std::string plugin_argument(const PluginRequest& request);

// "file=PLUGIN,cover=FILE": the plugin's cover mode (memcost/cover.c), which
// writes every executed kernel address and its count to FILE at QEMU's exit.
std::string cover_argument(const std::filesystem::path& plugin, const std::filesystem::path& file);

}  // namespace kseries::memcost
