#pragma once
// Before a comparison of a series' new path with the old one means
// anything, the new path must have run. memmap-equivalence compares a fast
// bind with a slow bind of the same kernel: if the fast path never ran (not
// compiled in, gated off, a kernel built from other sources), both sides
// are the slow path and the comparison passes on nothing (issue 45: a
// kernel without v10's code passed it). The evidence must come from what
// the kernel did, not from the series' symbol names (which a revision may
// change or inline): the work memmap_init_zone_device() (a function of the
// base every revision keeps) does in the series kernel's fast bind, against
// the base kernel's on the same setup. A fast path that runs changes it by
// tens of percent (v10: about -29 % on fsdax, -53 % on devdax under the
// instruction clock); a kernel that runs the base's code does the base's
// work to a few hundredths of a percent (KERNEL-NOTES.md: icount's relative
// stddev is 0.007-0.025 %).

#include <string>
#include <vector>

#include "oracle/equivalence.h"
#include "oracle/slow_path_work.h"

namespace kseries::oracle {

// The first evidence is the series kernel's own: how often its fast bind
// took the slow path's per-struct-page init, __init_zone_device_page() (a
// static function of the base every revision keeps, counted by a kprobe),
// against its slow bind. A fast bind that calls it for at least this share
// of the slow bind's struct pages took the slow path for every page.
inline constexpr double k_slow_share_when_not_run = 0.9;

// Without that count (the function renamed or inlined), the work: under the
// instruction clock a fast-bind work within this share of the base's is
// taken for the base's own. The series' own slow path is not the base's to
// the instruction: measured on 6.12.118 with v10's fast path compiled out,
// +1.1 % to +2.3 % (2026-12-06); a fast path changes it by tens of percent
// (v10: -23 % fsdax-mem, -28 % devdax-mem with the dumper's poisoning in the
// window) but v6's fsdax by only -6.8 % (memmap_init_vns, lab notes): the
// work is the weaker evidence, used only when the count is missing.
inline constexpr double k_same_work_share = 0.03;

enum class PathRan { k_ran, k_did_not_run, k_inconclusive };

struct FastPathEvidence {
  PathRan ran = PathRan::k_inconclusive;
  std::string facts;  // "memmap_init_zone_device() work -29.4 % against the base (...)"
};

// The series kernel's fast-bind work (per bind; CALLS calls of
// memmap_init_zone_device() in all) against the base kernel's on the same
// setup.
FastPathEvidence fast_path_evidence(const std::vector<double>& base,
                                    const std::vector<double>& candidate, WorkClock clock);

// The series kernel's own count: __init_zone_device_page() calls in a fast
// bind (FAST) and in the slow bind (SLOW) of the same setup.
FastPathEvidence fast_path_from_counts(double fast, double slow);

// The count first, the work (BY_WORK, fast_path_evidence) beside it. Equal
// counts say both binds took one path, not which: when the work says the
// series' code ran, the slow bind took the series' path too (a series that
// ignores the slow bind's reason, known-bad/tracepoint-ignore: 1 call and
// 1 on fsdax-mem, 1025 and 1025 on devdax-mem, its work -32 % of the
// base's), so the work decides.
FastPathEvidence fast_path_from_counts_and_work(double fast, double slow,
                                                const FastPathEvidence& by_work);

// What a fast-vs-slow (or series-vs-base) verdict of the series kernel
// becomes once the evidence is in. VERDICT is the comparison's own.
//  - ran: the verdict stands, its summary says "fast path ran: ...";
//  - did not run, and the series keeps to the slow path here by contract
//    (a sanitizer build; page_ref_set on from outside the case):
//    "not applicable" (skip), whatever the comparison found equal;
//  - did not run otherwise: an error (fail) "the series' code did not run";
//  - ran while page_ref_set was on from outside the case: a failure (the
//    series' contract is the slow path whenever the tracepoint is on);
//  - inconclusive: a failure, never a pass.
enum class SlowPathContract {
  k_none,          // the series' fast path must run
  k_sanitizer,     // the target's sanitizer keeps it on the slow path (sanitizer-gating judges)
  k_tracepoint_on  // page_ref_set was on for the bind (trace_event= on the command line)
};
SetupVerdict settle_with_evidence(SetupVerdict verdict, const FastPathEvidence& evidence,
                                  SlowPathContract contract);

// The base kernel's own fast-vs-slow verdict: the base has one path, so a
// pass compares it with itself: "not applicable" (skip), with what it showed
// (the harness's own proof, the unwritten page, still holds). A failure
// stays one: the harness or the base is broken.
SetupVerdict base_has_one_path(SetupVerdict verdict);

}  // namespace kseries::oracle
