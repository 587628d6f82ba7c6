#pragma once
// The watch's fetch step: seen -> fetched | ignored | refused, or seen still.
// b4 fetches the revision's thread; the revision is taken only when what b4
// wrote holds the very message the watch found (else the message sits in
// another series' thread, and b4 took that series). When b4 fails, the
// inbox is asked for the message itself: served, the failure is the mail's
// (refused, with b4's reason, taken again under another kseries or
// configuration); not served, it is the inbox's (tried again next poll).

#include "session/session.h"
#include "sys/process.h"
#include "watch/watch_state.h"
#include "watch/watcher.h"

namespace kseries::watch {

void fetch_revision(const WatchRequest& request, ProcessRunner& runner, session::Status& status,
                    RevisionState& s);

}  // namespace kseries::watch
