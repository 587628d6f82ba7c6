#pragma once
// The kernel's own tests judged against the base, never absolutely (what
// 0-day and KernelCI report): per test path, the candidate kernel's
// outcomes over its boots against the base kernel's over its boots.
//
//   candidate                         base                       verdict
//   passes every boot                 anything                   pass (says when the base fails:
//   fixed) fails every boot                  passes, skips or lacks it  fail: a new failure fails
//   every boot                  fails (or is flaky)        skip: pre-existing fails in some boots,
//   passes in    never fails                fail once the failures reach the
//     others (flaky)                                               bisection's rule, max(2, n/6) of
//                                                                  n boots (capped at n); else
//                                                                  skip: flaky
//   flaky                             fails too                  skip: flaky, pre-existing
//   skipped every boot                ran                        skip, named: skipped on one side
//   absent (its suite ran)            ran                        fail: no longer reported
// A test that runs on the candidate and is skipped on the base passes or
// fails as above, its summary naming the skip. Every summary gives both
// sides' counts ("2/2 fail; base: 2/2 pass").

#include <string>
#include <vector>

#include "oracle/equivalence.h"
#include "oracle/ktap_results.h"

namespace kseries::oracle {

// One kernel's runs of one suite: per boot that reported the suite, its tests.
struct KtapSide {
  std::string kernel;  // for the summaries: "base", "zone-device-memmap/v10"
  std::vector<std::vector<KtapTest>> boots;
};

// The failures a flaky test needs in N boots to count as a new failure
// (bisect/bisect.h's failures_needed: syzbot's max(2, n/6), at most n).
int ktap_failures_needed(int boots);

// One verdict per test path of either side (setup = the path), in the
// candidate's order, then the paths only the base reported; first of all,
// a verdict on SUITE itself (setup = SUITE + " (summary)") with the counts
// and the names of the new failures, failing when there is one. A side
// without a single boot of the suite fails the summary as inconclusive
// (nothing to compare).
std::vector<SetupVerdict> judge_ktap_vs_base(const std::string& suite, const KtapSide& base,
                                             const KtapSide& candidate);

// The base's (or a lone kernel's) own results of SUITE, one verdict:
// always a pass for the base (its failures are the reference, reported as
// counts and names), the summary "N tests: P pass, F fail, ...".
SetupVerdict summarize_ktap(const std::string& suite, const KtapSide& side);

}  // namespace kseries::oracle
