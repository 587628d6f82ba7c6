// The session options boot and gate share: boot reuse and the memory clock (commands.h).
#include "cli/commands.h"
#include "core/error.h"
#include "core/text.h"
#include "memcost/profile.h"
#include "qemu/vm.h"
#include "session/case_plan.h"

namespace kseries::cli {

void add_boot_reuse_options(po::options_description& options) {
  options.add_options()(
      "reuse-base-boots",
      "under icount, reuse a base boot identical to an earlier one (same kernel image, "
      "initramfs and QEMU arguments; kept in WORKDIR/boot-cache) instead of booting it again")(
      "reuse-boots",
      "as --reuse-base-boots, for every kernel: a series kernel byte-identical to one booted "
      "before (an unchanged prefix, a resent revision) reuses that boot and so its results");
}

void add_memory_clock_options(po::options_description& options) {
  options.add_options()("memory-profile", po::value<std::string>()->default_value("icelake-sp"),
                        "--clock memory: the machine whose caches and DRAM are modelled "
                        "(kernel-configs/machines/NAME.machine, or a file)")(
      "memory-unscaled",
      "--clock memory: the profile's real cache sizes; by default every cache is divided by "
      "the ratio of the seeds' memmap (100 GB) to this namespace's, so the memmap overflows "
      "them as it did there")(
      "memory-llc", po::value<std::string>(),
      "--clock memory: comma-separated last-level cache sizes (e.g. 8M,60M) modelled in the "
      "same boots beside the profile's (a sweep: metrics memmap_init_mns_llcNk)");
}

memcost::MemoryClockSettings memory_clock_settings(const po::variables_map& vm,
                                                   const std::string& clock) {
  if (clock != "both") {
    qemu::check_clock_name(clock);
  }
  memcost::MemoryClockSettings settings;
  // A case whose oracle reads the plugin (nt-ordering) boots under the
  // memory clock whatever --clock says: a profile given by name is its
  // profile then too (it was silently icelake-sp's, locked-orders-nt and all).
  const bool profile_given = vm.count("memory-profile") > 0 && !vm["memory-profile"].defaulted();
  if (clock != "memory" && !profile_given) {
    return settings;
  }
  settings.profile =
      memcost::load_profile(vm["memory-profile"].as<std::string>(), configs_dir(vm) / "machines");
  settings.unscaled = vm.count("memory-unscaled") > 0;
  if (vm.count("memory-llc")) {
    for (const auto& word : session::split_list(vm["memory-llc"].as<std::string>())) {
      const auto bytes = qemu::parse_memory_size(word);
      if (bytes < 4096 || bytes > (1ull << 34)) {
        throw usage_error("--memory-llc: '" + word + "' is not between 4K and 16G");
      }
      settings.llc_sweep.push_back(bytes);
    }
    if (settings.llc_sweep.size() > 3) {
      throw usage_error("--memory-llc: at most 3 sizes (the plugin models 4 hierarchies)");
    }
  }
  return settings;
}

}  // namespace kseries::cli
