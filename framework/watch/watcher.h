#pragma once
// `kseries watch`: the CI end of a mailing list. Each poll reads what the
// inbox took since the last one (inbox_reader.h: the archive's git epochs,
// else its feed), records every new series revision (intake.h,
// watch_state.h) before doing anything with it, fetches it with b4
// (revision_fetch.h), gates it with the previous revision of the same
// series and the same author or thread as its reference (revision_gate.h),
// and answers on the list: an RFC 5322 mail (answer_mail.h) in the outbox,
// piped to --sendmail if given (outbox.h). Every step is recorded before
// the next, so a restart after a kill at any point goes on where the
// revision's state says and writes no answer twice. The caller holds the
// state's lock (lock_watch_state).

#include <git2.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gate/gate.h"
#include "session/session.h"
#include "sys/process.h"
#include "watch/inbox_reader.h"
#include "watch/match.h"

namespace kseries::watch {

// Whether a poll gates and answers (the service) or only reads, records and
// fetches (--dry-run: to try a watch on a list's history).
enum class GateMode { k_gate, k_dry_run };

struct WatchRequest {
  std::string inbox_url;
  InboxSource source = InboxSource::k_auto;
  std::optional<Since> since;
  std::uintmax_t max_fetch_bytes = 4ull << 30;
  std::vector<Match> matches;
  gate::ResolvedMatrix matrix;
  std::string matrix_argument;  // as given, for the reproduce block
  std::filesystem::path configs;
  std::filesystem::path testcases;
  std::filesystem::path outbox;
  std::filesystem::path state_dir;
  std::filesystem::path inputs_dir;   // where b4 writes the fetched series
  std::vector<std::string> sendmail;  // argv; empty: the outbox only
  std::string from = "kseries <kseries@invalid>";
  std::string report_url;  // where readers find a run: <report_url>/<run id>/
  qemu::Accel accel = qemu::Accel::k_auto;
  gate::ReproduceInputs reproduce;  // base, directories, accel, clock (series per gate)
  std::string judged_by;            // the kseries build (gate::GateRequest::judged_by)
  std::string clock = "auto";
  // kseries' version and the --match set: an ignored or refused revision
  // judged under another stamp is taken again.
  std::string intake_stamp;
  GateMode mode = GateMode::k_gate;
};

struct WatchServices {
  ProcessRunner& runner;
  gate::GateServices& gate;
  session::Status& status;
  // The base for a series naming BASE_COMMIT (or none): commit and label.
  std::function<std::pair<git_oid, std::string>(const std::optional<std::string>&)> resolve_base;
  // --tree DIR --base SHA (or --tarball FILE) for this base, for reproduce.
  std::function<std::vector<std::string>(const git_oid&)> base_arguments;
  std::function<std::filesystem::path()> new_run;
};

struct PollSummary {
  std::size_t messages = 0;  // read from the inbox in this poll
  std::size_t new_revisions = 0;
  std::size_t answered = 0;          // answers written in this poll
  std::string source;                // where they were read
  std::string skipped;               // "12 replies, 30 later patches of a series, ..."
  std::vector<std::string> notes;    // where the read started, warnings
  std::vector<std::string> lines;    // one per revision handled
  std::vector<std::string> pending;  // revisions waiting, and why
};

// One poll: read the inbox, then take every unfinished revision as far as
// it goes. Throws Error(k_infrastructure) when the inbox cannot be read; a
// revision that fails stays where it was, with the reason in its state.
PollSummary poll_once(const WatchRequest& request, WatchServices& services);

// What a state holds that is not finished, one line each ("seen ... : fetch
// failed (attempt 3), will try again: ..."), for --status and the service.
std::vector<std::string> pending_lines(const std::filesystem::path& state_dir);

}  // namespace kseries::watch
