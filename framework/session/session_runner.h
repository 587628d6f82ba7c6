#pragma once
// One boot session from its request to its report: plan the case on the
// target, build the kernels (a kernel that does not build ends the session,
// it is not thrown), build the initramfs, choose accelerator and clock,
// boot, judge, render. `kseries boot` runs one; `kseries gate` one per cell.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cases/case_def.h"
#include "kernel/kernel_build.h"
#include "kernel/target.h"
#include "memcost/profile.h"
#include "qemu/vm.h"
#include "session/case_plan.h"
#include "session/session.h"
#include "session/session_report.h"
#include "sys/process.h"

namespace kseries::session {

struct SessionRequest {
  kernel::Target target;
  cases::CaseDef test_case;
  std::filesystem::path testcases;
  CaseOptions case_options;
  std::vector<KernelUnderTest> kernels;  // roles and commits; built by the session
  qemu::Accel accel = qemu::Accel::k_auto;
  std::string clock = "auto";
  int boots = 1;
  bool boots_given = false;  // false: under icount, a second pair only when needed
  std::string pmem = "legacy";
  std::string pmem_size = "2G";
  // false: the target's pmem-size: (if it has one) replaces pmem_size.
  bool pmem_size_given = false;
  // Default: the case's, or the target's boot-timeout: when that is longer.
  std::optional<std::chrono::seconds> timeout;
  std::filesystem::path run_dir;
  bool keep_bulk = false;  // keep each boot's bulk disk once read (to debug a dump)
  bool cover = true;       // a coverage target's boots load the plugin's cover mode
  // Reuse baseline boots under icount from WORKDIR/boot-cache (session/boot_cache.h);
  // with reuse_every_boot the series' boots too.
  bool reuse_baseline_boots = false;
  bool reuse_every_boot = false;
  memcost::MemoryClockSettings memory;  // --clock memory
  // The case's path entries the candidate's diff against the base changes
  // (session::changed_path), when the caller judges a series as a whole
  // (`kseries boot --series`, the gate's cells at a tip); nullopt for a
  // prefix or a bisection step: whether the candidate claims a new path
  // (session/new_path.h).
  std::optional<std::vector<std::string>> candidate_changes;
};

// What a session's boots get: the request's pmem size unless the command
// line left it and the target has `pmem-size:`; the target's `cpus:` (0: the
// VM's default); --timeout, else the case's timeout or the target's
// `boot-timeout:`, whichever is longer (a slow target lengthens every case's
// deadline, never shortens one).
struct BootSettings {
  std::string pmem_size;
  std::string memory;  // QEMU -m: the case's memory:, else the target's, else "" (the VM's)
  int cpus = 0;
  std::chrono::seconds timeout{0};
};
BootSettings boot_settings(const SessionRequest& request);

struct Services {
  kernel::KernelBuilds& builder;
  ProcessRunner& runner;
  std::filesystem::path workdir_root;  // the initramfs cache and the KVM probe live here
};

enum class SessionEnd { k_skipped, k_not_built, k_booted };

struct SessionOutcome {
  SessionEnd end = SessionEnd::k_skipped;
  std::string why;                       // k_skipped, k_not_built: the reason
  SessionReport report;                  // k_booted: the whole report; k_skipped: the skips
  std::vector<KernelUnderTest> kernels;  // as built and booted
  // k_booted: every boot's record, judged (its findings, problems and
  // verdicts), in boot order: what a caller reads instead of report.json.
  std::vector<BootRecord> boots;
};

SessionOutcome run_session(SessionRequest request, Services& services, Status& status);

}  // namespace kseries::session
