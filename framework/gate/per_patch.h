#pragma once
// The gate's per-patch stage (bisectability): every patch of a series built
// on the matrix's per-patch target, one after the other, each broken patch
// named with its first errors, and the warnings each patch adds to the
// build before it (the base's, when that kernel is cached). One cell,
// "per-patch TARGET", with each patch's facts (results/facts.h).

#include <git2.h>

#include <filesystem>
#include <string>

#include "git/apply.h"
#include "kernel/kernel_build.h"
#include "kernel/target.h"
#include "results/gate_record.h"
#include "series/series.h"
#include "session/session.h"

namespace kseries::run {

struct PerPatchInput {
  std::string series_name;
  const Series* series = nullptr;
  const git::ApplyResult* applied = nullptr;  // the chain applied; its last patches are SERIES'
  const kernel::Target* target = nullptr;
  git_oid base{};
  std::filesystem::path run_dir;  // build-SERIES-TARGET-N.log go here
};

results::CellResult per_patch_stage(const PerPatchInput& input, kernel::KernelBuilds& builder,
                                    Status& status);

// "zone-device-memmap/v10 x" -> "zone-device-memmap-v10-x": a name for a file.
std::string file_safe(std::string name);

}  // namespace kseries::run
