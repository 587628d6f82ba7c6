#pragma once
// The boot stage of a session: every kernel booted in rounds, interleaved
// A B / B A (so drift on a shared machine hits both alike), each boot
// triaged, checked for a case that died, and judged by the case's oracle.
// Under the instruction clock a second round is added when one pair leaves
// a near-deterministic timing verdict unknown.

#include <string>
#include <vector>

#include "cases/memory_clock.h"
#include "qemu/vm.h"
#include "session/boot_cache.h"
#include "session/oracle.h"
#include "session/session.h"

namespace kseries::session {

struct SessionSpec {
  qemu::VmSpec vm;            // accelerator decided, clock set; kernel/initramfs/name per boot
  std::string guest_cmdline;  // the case's and target's, plus kseries.case= and kseries.args=
  std::vector<std::string> setups;  // the setups asked for: each must get a result
  const Oracle* oracle = nullptr;   // nullptr: a case without a host oracle
  bool timing_only = true;          // false for oracle cases: only their fast-path timings are kept
  int boots = 1;                    // rounds
  bool adaptive = false;            // icount: a second round when a verdict is unknown
  std::string label;                // progress: "(tcg, legacy pmem 2G)"
  // The bulk disk (256 MiB, sparse) is removed once its blobs are read: a
  // run directory is uploaded as a CI artifact, where sparse files expand.
  bool keep_bulk = false;
  // Baseline boots under icount reused from (and kept in) this cache;
  // nullptr: every boot runs.
  const BootCache* boot_cache = nullptr;
  // The cache covers every kernel, not only the baselines: a series kernel
  // byte-identical to one booted before (an unchanged prefix, a resend)
  // reuses that boot, and with it the cell's results.
  bool cache_every_kernel = false;
  // The memory clock's models (the first is the clock's): non-empty under
  // qemu::Clock::k_memory.
  std::vector<cases::MemoryModel> memory_models;
  // A coverage target's boots (its `coverage` feature): each boot loads the
  // plugin's cover mode and leaves NAME.cover in the run directory, the
  // executed addresses `kseries coverage` and the gate's coverage stage
  // map onto the series' lines. Never cached (the cache keeps no cover file).
  bool cover = false;
  // Whether the candidate changes the case's path (session/new_path.h).
  NewPath new_path;
  // A baseline boot whose console has a finding (an oops, a stall, a
  // panic: guest/triage.h) is booted again, up to this many times: a
  // finding of the base kernel is not the series', and one that does not
  // come back is flaky on the base, reported and not judged. One that
  // comes back every time stays: the base itself fails the case.
  int baseline_reruns = 2;
};

struct SessionResult {
  std::vector<BootRecord> records;
  int boots = 0;  // rounds booted (more than asked when adaptive)
  // Baseline boots whose findings did not come back when the same kernel
  // was booted again (the rerun's record is in RECORDS): flaky on the base.
  std::vector<BootRecord> flaky_baseline;
};

// The per-boot file prefix: role and round ("candidate-2"), so two kernels
// never share a console log; a rerun of a baseline boot adds its number
// ("base-1-rerun1"), so it never overwrites the boot it repeats.
std::string boot_file_prefix(KernelRole role, int round, int rerun = 0);

// Boots every kernel of KERNELS, accumulating their timing; returns every
// boot's record in boot order.
SessionResult run_boots(std::vector<KernelUnderTest>& kernels, const SessionSpec& spec,
                        qemu::Vm& vm, Status& status);

}  // namespace kseries::session
