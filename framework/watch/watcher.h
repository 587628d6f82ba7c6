#pragma once
// `kseries watch`: the CI end of a mailing list. Each poll reads the
// inbox's feed, records every new series revision (watch_state.h) before
// doing anything with it, fetches it with b4, gates it with the previous
// revision of the same series (series/revision_identity.h) as its
// reference, and answers on the list: an RFC 5322 mail (answer_mail.h) in
// the outbox, piped to --sendmail if given. Every step is recorded before
// the next, so a restart after a kill at any point goes on where the
// revision's state says and writes no answer twice.

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
#include "watch/match.h"

namespace kseries::watch {

struct WatchRequest {
  std::string inbox_url;
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
  qemu::Accel accel = qemu::Accel::k_auto;
  gate::ReproduceInputs reproduce;  // base, directories, accel, clock (series per gate)
  std::string clock = "auto";
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
  std::size_t new_revisions = 0;
  std::size_t answered = 0;        // answers written in this poll
  std::vector<std::string> lines;  // one per revision handled
};

// One poll: read the feed, then take every unfinished revision as far as it
// goes. Throws Error(k_infrastructure) when the inbox cannot be read.
PollSummary poll_once(const WatchRequest& request, WatchServices& services);

}  // namespace kseries::watch
