#pragma once
// The watch's answer step: gated -> sending -> answered. The mail goes to
// the outbox once (written beside, then renamed; named for the revision),
// then to --sendmail once: `sending` is recorded before the command runs,
// so a kill while it runs means the answer is not piped again (at most
// once; the mail stays in the outbox).

#include "watch/watch_state.h"
#include "watch/watcher.h"

namespace kseries::watch {

// True when this call wrote or sent the answer.
bool send_answer(const WatchRequest& request, WatchServices& services, WatchState& state,
                 RevisionState& s);

}  // namespace kseries::watch
