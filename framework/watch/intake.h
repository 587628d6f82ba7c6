#pragma once
// Which messages of an inbox start a series revision, read from the headers
// alone (archive_message.h): a 0/N cover letter; a patch posted on its own;
// the first patch of a series sent without a cover letter (patch 1/N that
// answers no cover letter of its own revision). Not a revision: a reply
// ("Re:"), a later patch of a series, and a patch that answers a revision
// already seen without a newer vN ("[PATCH] fixup ..." in a series' thread),
// which is recorded as such, so its author's thread is not told that a
// series passed.

#include <functional>
#include <optional>
#include <string>

#include "series/subject.h"
#include "watch/archive_message.h"
#include "watch/watch_state.h"

namespace kseries::watch {

// What the watch already knows of a message-id: a revision it recorded.
struct KnownRevision {
  StartKind kind = StartKind::k_cover;
  int revision = 1;
  int total = 0;
};
using KnownLookup = std::function<std::optional<KnownRevision>(const std::string& message_id)>;

struct IntakeDecision {
  enum class Verdict {
    k_skip,       // nothing to record (a reply, a later patch, not a patch)
    k_revision,   // a revision starts here
    k_not_taken,  // looks like one, is not: recorded as ignored with `why`
  };
  Verdict verdict = Verdict::k_skip;
  StartKind kind = StartKind::k_cover;
  Subject subject;
  std::string why;
  std::string category;  // for a skip: "replies", "later patches of a series", ...
};

IntakeDecision classify_message(const ArchiveMessage& message, const KnownLookup& known);

}  // namespace kseries::watch
