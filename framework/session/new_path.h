#pragma once
// Whether a session's candidate is expected to run new code on the path its
// case exercises, and what follows when it does not (issue 45). A case names
// the source files of its path (case.conf `path:`); a candidate whose diff
// against the base changes one of them claims a new path there. Then:
//  - a fast-vs-slow or series-vs-base comparison first proves, from what the
//    kernel did, that the new path ran (oracle/fast_path_ran.h); if it did
//    not, the comparison was of the old path with itself: an error;
//  - a timing of that path equal to the base's is a finding ("the series'
//    changes did not change the measured work: is its code in the kernel?").
// A candidate that changes none of them (a prefix before the fast path, a
// series elsewhere), or a target whose contract keeps the series on the
// slow path (sanitizer builds), gets "not applicable" instead.

#include <git2.h>

#include <string>
#include <vector>

#include "cases/case_def.h"
#include "git/store.h"
#include "kernel/target.h"

namespace kseries::session {

struct NewPath {
  // The case's `path:` files the candidate changes against the base ("" in
  // none): set by the callers that judge a series as a whole (`kseries
  // boot --series`, the gate's cells at a series' tip), never by the
  // bisection (a prefix without the fast path is not a failure there).
  std::vector<std::string> changed;
  // The target keeps the series on the slow path by contract (its
  // `sanitizer` feature: KASAN/KMSAN builds).
  bool slow_path_by_contract = false;

  bool expected() const { return !changed.empty() && !slow_path_by_contract; }
  // "mm/mm_init.c" or "mm/mm_init.c, mm/internal.h", for messages.
  std::string files() const;
};

// The files that differ between two commits' trees (paths as a diff names
// them, sorted).
std::vector<std::string> changed_files(const git::Store& store, const git_oid& from,
                                       const git_oid& to);

// What a session of CASE on TARGET expects of a candidate whose diff against
// the base changes FILES.
NewPath new_path_for(const cases::CaseDef& test_case, const kernel::Target& target,
                     const std::vector<std::string>& files);

}  // namespace kseries::session
