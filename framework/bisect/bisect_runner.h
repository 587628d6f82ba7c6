#pragma once
// A bisection run over the run layer: the series is applied once, in
// memory (every prefix is then a commit), and each run the Bisection asks
// for is made at its prefix: the apply outcome, a build through the cached
// kernel builder (a prefix built before costs nothing), or a boot session
// (run_session), turned into pass, fail, unknown or untestable. `kseries
// bisect` is a thin driver over this.

#include <git2.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bisect/bisect.h"
#include "cases/case_def.h"
#include "cases/memmap_timing.h"
#include "git/store.h"
#include "kernel/kernel_build.h"
#include "kernel/target.h"
#include "qemu/vm.h"
#include "session/case_plan.h"
#include "session/session.h"
#include "sys/process.h"

namespace kseries::bisect {

struct BisectRequest {
  std::filesystem::path series;  // a directory or an mbox (its depends applied first)
  git_oid base{};
  std::string base_label;
  BisectPolicy policy;
  kernel::Target target;
  std::optional<cases::CaseDef> test_case;  // boot, case and timing checks
  std::filesystem::path testcases;
  session::CaseOptions case_options;
  std::string metric;    // timing: e.g. memmap_init_vns (memmap_init_ns names it too)
  double threshold = 0;  // timing: a slowdown of at least this fraction is bad
  // Timing, policy.reference == k_against: the good revision (a directory or
  // an mbox) whose prefix K each prefix K is compared with, on the same base.
  std::filesystem::path against;
  qemu::Accel accel = qemu::Accel::k_auto;
  std::string clock = "auto";
  std::string pmem = "legacy";
  std::string pmem_size = "2G";
  bool pmem_size_given = false;  // false: the target's pmem-size: when it has one
  std::optional<std::chrono::seconds> timeout;
  std::filesystem::path run_dir;
};

// Prefix k of the series: the base with its first k patches. Prefix 0 is
// the base (with the prerequisite series, if any): the timing baseline.
struct Prefix {
  std::size_t index = 0;
  std::string subject;            // of patch `index`; "" for the base
  std::string author;             // "Name <email>"
  std::optional<git_oid> commit;  // nullopt: the prefix does not apply
  std::string apply_failure;      // why not
};

struct BisectOutcome {
  std::string series;            // its name, "known-bad/perf-regression"
  std::vector<Prefix> prefixes;  // 0..N
  Bisection bisection;           // finished
  // Timing --against: the reference revision's name and prefixes (0..M; a
  // prefix K > M is compared with its tip).
  std::string against;
  std::vector<Prefix> reference_prefixes;
};

struct BisectServices {
  git::Store& store;
  kernel::KernelBuilds& builder;
  ProcessRunner& runner;
  std::filesystem::path workdir_root;
  // Called after every run (e.g. to save the evidence so far).
  std::function<void(const BisectOutcome&)> on_run;
};

// Throws Error(k_usage) for a case the target skips or a metric the case
// does not measure, Error(k_check_failed) when a prerequisite series does
// not apply; a prefix that does not apply is a failing prefix.
BisectOutcome run_bisect(const BisectRequest& request, BisectServices& services,
                         session::Status& status);

// The timing verdict of CANDIDATE against BASE on METRIC for every setup
// (stats::compare under the metric's own materiality): fail when a setup is
// slower by at least THRESHOLD (a fraction), unknown when none is but one
// is unknown, pass otherwise. Throws Error(k_usage) when no setup measured
// the metric, naming those measured.
BisectRun judge_timing(const cases::TimingData& base, const cases::TimingData& candidate,
                       const std::string& metric, double threshold);

// Appends MORE's samples to INTO (one more boot per kernel, its own block).
void pool_timing(cases::TimingData& into, const cases::TimingData& more);

}  // namespace kseries::bisect
