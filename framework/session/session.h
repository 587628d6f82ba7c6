#pragma once
// The vocabulary of a boot session (one target, one case, one or two
// kernels booted in rounds): why each kernel is there, what each boot left,
// and where progress goes. Shared by `kseries boot` and `kseries gate`.

#include <git2.h>

#include <any>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cases/memmap_timing.h"
#include "cases/memory_clock.h"
#include "guest/protocol.h"
#include "guest/triage.h"
#include "kernel/kernel_build.h"
#include "memcost/record.h"
#include "oracle/equivalence.h"
#include "oracle/hugetlb_tails.h"
#include "oracle/memmap_state.h"
#include "oracle/slow_path_work.h"
#include "qemu/vm.h"
#include "session/new_path.h"

namespace kseries::session {

// Why a kernel is in a session. Roles, not names, decide pairing and file
// names: a series may well be called "base".
//  k_base       the base tree the series applies onto;
//  k_reference  another revision the candidate is compared against (--against);
//  k_candidate  the series under test;
//  k_control    the baseline booted again (an A/A control).
enum class KernelRole { k_base, k_reference, k_candidate, k_control };

std::string role_name(KernelRole role);  // "base", "reference", "candidate", "control"

// The baseline a candidate is judged against: the base or a reference.
bool is_baseline(KernelRole role);

struct KernelUnderTest {
  KernelRole role = KernelRole::k_base;
  std::string name;  // for reports: "base", "zone-device-memmap/v6", "base-again"
  git_oid commit{};
  kernel::KernelBuild build{};
  cases::TimingData timing{};
  int boots = 0;
  std::filesystem::path initramfs{};
  cases::TrafficData traffic{};  // the memory clock's, its boots pooled
};

// One boot of one kernel.
struct BootRecord {
  KernelRole role = KernelRole::k_base;
  std::string kernel;  // the kernel's name
  int round = 0;
  int rerun = 0;  // a baseline boot booted again after a console finding (boot_session.h)
  qemu::VmRun run;
  std::vector<guest::Event> events;
  std::vector<guest::Finding> findings;
  bool powered_off = false;
  double seconds = 0;
  // Each fails the boot: the case died or ended rc != 0, a setup got no
  // result, the oracle had nothing to judge, a guest-error.
  std::vector<std::string> problems;
  std::vector<oracle::SetupVerdict> verdicts;  // the oracle's verdicts of this boot alone
  // What the case's oracle keeps of this boot for its pairing, as the
  // oracle's own type (session/oracle.h: evidence_of).
  std::any evidence;
  // What the session expects of the candidate's path (session/new_path.h).
  NewPath new_path;
  qemu::Clock clock = qemu::Clock::k_wall;  // what its measurements count (icount: instructions)
  // The memory clock: the plugin's records, and per window (call order) the
  // setup and iteration of the bind it belongs to.
  memcost::Records memcost;
  std::filesystem::path system_map;  // the booted kernel's, to name PCs
  std::vector<std::pair<std::string, int>> memcost_owners;
  cases::TrafficData memory_traffic;  // the rebinds' windows, per setup
};

// Where a session's progress lines go: injected, so tests can record the
// order of events and the CLI can print them.
class Status {
 public:
  virtual ~Status() = default;
  virtual void progress(const std::string& line) = 0;
};

}  // namespace kseries::session
