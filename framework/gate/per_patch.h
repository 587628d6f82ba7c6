#pragma once
// The gate's per-patch stage (bisectability): every patch of a series built
// on the matrix's per-patch target, one after the other, each broken patch
// named with its first errors, and the warnings each patch adds to the
// build before it (the base's, when that kernel is cached). One cell,
// "per-patch TARGET", with each patch's facts (results/facts.h).

#include <git2.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gate/stage.h"
#include "git/apply.h"
#include "kernel/kernel_build.h"
#include "kernel/target.h"
#include "results/gate_record.h"
#include "series/series.h"
#include "session/session.h"

namespace kseries::gate {

// One commit to build, as the per-patch stage and `kseries build` name it.
struct BuildStep {
  std::string label;  // "base", "zone-device-memmap/v6 3/8"
  std::string subject;
  git_oid commit{};
  std::size_t patch = 0;  // 1-based position in the top series, 0 for the base
};

struct BuildStepsOptions {
  std::function<std::filesystem::path(std::size_t)> log;  // step I's build log
  // Test modules are for the kernel that boots: the last step's only.
  std::vector<std::filesystem::path> last_step_modules;
  bool configure_only = false;
  std::function<void(std::size_t)> starting = [](std::size_t) {};
  std::function<void(std::size_t, const std::string&)> progress = [](std::size_t,
                                                                     const std::string&) {};
};

// Each step built in order on TARGET, incrementally in its build directory;
// a step that does not build does not stop the ones after it. The loop of
// the per-patch stage and of `kseries build --per-patch`.
std::vector<kernel::StepResult> build_steps(const kernel::Target& target,
                                            const std::vector<BuildStep>& steps,
                                            const BuildStepsOptions& options,
                                            kernel::KernelBuilds& builder);

// The warnings of NOW that BEFORE does not have, in NOW's order.
std::vector<std::string> added_warnings(const std::vector<std::string>& before,
                                        const std::vector<std::string>& now);

// The per-patch stage: the cell "per-patch TARGET" of the matrix's
// `per-patch:` line (a job of its own target's shard).
const Stage& per_patch_stage();

// "zone-device-memmap/v10 x" -> "zone-device-memmap-v10-x": a name for a file.
std::string file_safe(std::string name);

}  // namespace kseries::gate
