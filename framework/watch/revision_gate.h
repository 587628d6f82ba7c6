#pragma once
// The watch's gate step: fetched -> gated. The revision is gated beside its
// previous revision, which must be of the same series (identity, by b4's
// change-id first) and of the same author or thread: a change-id is a
// string anyone can copy into a cover letter, so it alone makes no
// predecessor. The answer is composed from the gate's result, naming the
// run by its ID (and --report-url), never by a path of this machine.

#include <vector>

#include "watch/watch_state.h"
#include "watch/watcher.h"

namespace kseries::watch {

// The newest gated revision before S of its series and of its author or
// thread; nullptr when none. WHY says which same-family revisions were
// passed over for their author.
const RevisionState* previous_revision(const std::vector<RevisionState>& states,
                                       const RevisionState& s, std::string& why);

void gate_revision(const WatchRequest& request, WatchServices& services,
                   const std::vector<RevisionState>& states, RevisionState& s);

}  // namespace kseries::watch
