#pragma once
// Whether a session's candidate is expected to run new code on the path its
// case exercises, and what follows when it does not (issue 45). A case names
// its path (case.conf `path: FILE:FUNCTION`, e.g.
// mm/mm_init.c:memmap_init_zone_device): the function and every function of
// the same file it calls, directly or not. A candidate whose diff against
// the base changes a line of that code claims a new path there. Then:
//  - a fast-vs-slow or series-vs-base comparison first proves, from what the
//    kernel did, that the new path ran (oracle/fast_path_ran.h); if it did
//    not, the comparison was of the old path with itself: an error;
//  - a timing of that path equal to the base's is a finding ("the series'
//    changes did not change the measured work: is its code in the kernel?").
// A candidate that changes none of it (a prefix before the fast path, a
// series elsewhere, a comment), or a target whose contract keeps the series
// on the slow path (sanitizer builds), gets "not applicable" instead.

#include <git2.h>

#include <string>
#include <vector>

#include "cases/case_def.h"
#include "git/store.h"
#include "kernel/target.h"

namespace kseries::session {

struct NewPath {
  // The case's path entries the candidate changes, each with the functions
  // whose lines it changes ("mm/mm_init.c:memmap_init_zone_device
  // (memmap_init_compound)"): set by the callers that judge a series as a
  // whole (`kseries boot --series`, the gate's cells at a series' tip),
  // never by the bisection (a prefix without the fast path is not a failure
  // there).
  std::vector<std::string> changed;
  // The target keeps the series on the slow path by contract (its
  // `sanitizer` feature: KASAN/KMSAN builds).
  bool slow_path_by_contract = false;

  bool expected() const { return !changed.empty() && !slow_path_by_contract; }
  // The entries, comma-separated, for messages.
  std::string files() const;
};

// The entries of PATH (FILE:FUNCTION, or FILE alone for the whole file)
// whose code the diff FROM..TO changes, as NewPath::changed spells them.
// Functions are found in kernel style (a body between column-0 braces); a
// function reaches the functions of the same file whose names it calls.
std::vector<std::string> changed_path(git::Store& store, const git_oid& from, const git_oid& to,
                                      const std::vector<std::string>& path);

// The same on texts: the file's text at FROM and the old-side line numbers
// (1-based) the diff changes or inserts next to.
std::vector<std::string> changed_functions(const std::string& text, const std::string& root,
                                           const std::vector<int>& changed_lines);

// What a session of CASE on TARGET expects of a candidate whose diff against
// the base changes CHANGED (changed_path()).
NewPath new_path_for(const kernel::Target& target, std::vector<std::string> changed);

}  // namespace kseries::session
