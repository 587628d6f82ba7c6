#pragma once
// Triage of a guest's serial console log: every panic, oops, BUG, WARN,
// sanitizer report, RCU stall, hung task or soft lockup becomes a classified
// finding with its excerpt, even when the guest script thought it passed.
// Boot timeouts and QEMU crashes come from how the QEMU process ended.

#include <string>
#include <string_view>
#include <vector>

namespace kseries::guest {

enum class FindingKind {
  k_panic,
  k_oops,
  k_bug,
  k_warning,
  k_kasan,
  k_kmsan,
  k_ubsan,
  k_rcu_stall,
  k_hung_task,
  k_soft_lockup,
  k_boot_timeout,
  k_qemu_crash,
  k_no_poweroff,
};

const char* to_string(FindingKind kind);

struct Finding {
  FindingKind kind;
  int line = 0;         // 1-based line in the console log (0: not from the log)
  std::string title;    // the matching line, timestamp removed
  std::string excerpt;  // the report, up to its end marker or a bounded length
  // The guest's step when it happened: the last "kseries-step: SETUP STEP"
  // line before it ("devdax-dev unbind"); "" when the guest wrote none.
  std::string during;
};

// Findings in the console log, in log order.
std::vector<Finding> triage_console(std::string_view console);

// How the boot ended, as far as QEMU is concerned.
enum class BootEnd { k_powered_off, k_timed_out, k_qemu_failed };

// The console findings plus the boot-level ones: a timeout (hung guest) or a
// QEMU that died without the guest powering off.
std::vector<Finding> triage_boot(std::string_view console, BootEnd end,
                                 const std::string& qemu_detail);

}  // namespace kseries::guest
