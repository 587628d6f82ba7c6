#pragma once
// Which kernels a session boots beside its subject: the one pairing rule
// of `kseries boot`, the gate's cells and the bisection's steps. The
// callers say what they were asked; this says who boots; they then name
// the commits (the base, a prefix, a revision).

#include <vector>

#include "session/oracle.h"
#include "session/session.h"

namespace kseries::session {

struct Pairing {
  // The case's judge; nullptr for a timing case.
  const Oracle* oracle = nullptr;
  // A candidate series boots (`kseries boot` without --series boots the
  // base alone).
  bool series = true;
  // A timing case is judged against a baseline: the gate's cells, a timing
  // bisection, `kseries boot --compare-base`.
  bool judge_timing = false;
  // The baseline boots whatever the case: `kseries boot --compare-base`, a
  // timing bisection.
  bool baseline_asked = false;
  // The baseline is another revision (`kseries boot --against`), not the
  // base.
  bool against = false;
};

// The roles of the session's kernels, in boot order: the baseline (base,
// or the --against reference) when the oracle pairs kernels, a timing case
// is judged against it or it was asked for; a control (the base again)
// when the base is compared with itself; the candidate when a series boots.
std::vector<KernelRole> session_roles(const Pairing& pairing);

}  // namespace kseries::session
