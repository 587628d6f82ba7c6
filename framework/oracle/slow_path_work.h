#pragma once
// Name-independent evidence that a series keeps to the slow path where its
// contract says it must (sanitizer builds): the work memmap_init_zone_device()
// does per bind, a function of the *base* kernel that every revision keeps,
// timed by function_graph. On one target, a series that stays on the slow
// path does the base's work; a fast path that runs cuts it by tens of
// percent, whatever the series calls its helpers or whether they are inlined.
//
// Under QEMU's icount clock a guest ns is an executed instruction: one boot a
// side decides. Under the wall clock the samples are compared statistically
// and an unclear comparison is inconclusive, which is a failure, never a pass.

#include <map>
#include <string>
#include <vector>

#include "guest/protocol.h"
#include "oracle/equivalence.h"

namespace kseries::oracle {

// The fraction of the base's work a series may save on the slow path before
// the cut is taken as a fast path running. Calibrated on v6 and v10 on the
// kasan target (testcases/README.md).
inline constexpr double k_slow_path_max_cut = 0.10;

enum class WorkClock { k_instructions, k_wall };

// Per setup, the memmap_init_ns of the binds the guest made for this
// evidence (kind=work: kept out of the timing tables and comparison, whose
// "slower" would fail a sanitizer build for a cost it is allowed), in order.
std::map<std::string, std::vector<double>> collect_slow_path_work(
    const std::vector<guest::Event>& events);

// The candidate's work on SETUP against the base's: pass when it does at
// least (1 - max_cut) of it, fail when it does less (its fast path ran), fail
// as inconclusive when a side has no samples or the wall clock cannot tell.
SetupVerdict judge_slow_path_work(const std::string& setup, const std::vector<double>& base,
                                  const std::vector<double>& candidate, WorkClock clock,
                                  double max_cut = k_slow_path_max_cut);

}  // namespace kseries::oracle
