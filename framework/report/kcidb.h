#pragma once
// The KernelCI common database's I/O format (KCIDB, schema v5.3) for a run
// read back from its directory (report/run_record.h), so a CI system can
// submit kseries results with `kcidb-submit`:
//  checkouts  one per series revision: the base commit, the patch files in
//             apply order and their patchset hash; valid when it applied;
//  builds     each per-patch build, and each target a series' cells built
//             (config_name = target), with status, duration and errors;
//  tests      per cell ("kseries.memmap-equivalence"), per boot, per oracle
//             setup ("kseries.memmap-equivalence.devdax-mem") and per timing
//             figure ("kseries.memmap-timing.devdax-mem.memmap_init_vns",
//             with the mean as a `number` and the comparison in `misc`).
// Ids are "<origin>:<run>:<series>[:...]"; every string is valid UTF-8
// without NUL, log excerpts at most 16 KiB.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/run_record.h"

namespace kseries::report {

inline constexpr int k_kcidb_major = 5;
inline constexpr int k_kcidb_minor = 3;

struct KcidbOptions {
  std::string origin = "kseries";  // KCIDB's origin: [a-z0-9_]+
};

nlohmann::json render_kcidb(const RunRecord& run, const KcidbOptions& options = {});

// KCIDB's patchset hash: the sha256 of the patches' sha256 hex digests, each
// followed by a newline, in apply order ("sha256sum *.patch | cut -c-64 |
// sha256sum"); "" when no patch was applied.
std::string patchset_hash(const std::vector<std::string>& patch_sha256);

}  // namespace kseries::report
