#pragma once
// `kseries build --clean`: forgets what the kernel cache holds for a target,
// so the build that follows is a clean make rather than an answer from the
// cache (what a benchmark of a clean build needs). Only this module and
// kernel_build know the layout of <workdir>/targets and <workdir>/kernels.

#include <filesystem>
#include <string>
#include <vector>

namespace kseries::kernel {

// What a clean forgets: the cached kernels only (the next make is
// incremental in the build directory), or the build directory too (clean).
enum class CleanScope { k_kernels, k_kernels_and_build_dir };

struct CleanResult {
  std::vector<std::filesystem::path> kernels;  // the cached kernel directories removed
  bool build_dir = false;                      // the target's build directory was removed
};

// Removes every finished kernel of TARGET whose source tree is one of TREES
// (hex tree ids), however it was configured or compiled, and with
// k_kernels_and_build_dir TARGET's build directory and warning state too. The source checkout
// stays, as do other targets' kernels and this target's kernels of other trees. Waits for a kseries
// that is building the target (its lock), and removes each directory by renaming it away first, so
// an interrupted clean never leaves a kernel the cache would still serve.
CleanResult clean_kernel_cache(const std::filesystem::path& workdir_root, const std::string& target,
                               const std::vector<std::string>& trees, CleanScope scope);

}  // namespace kseries::kernel
