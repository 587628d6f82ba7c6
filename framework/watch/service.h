#pragma once
// `kseries watch` as a service: polls until it is stopped. A poll that
// fails (the inbox unreachable for a while, a malformed feed, a full disk)
// is one line and a wait, never the end: the wait doubles with each failure
// in a row, from the interval (at most 15 s) up to the interval (at least
// 10 min), and the first good poll goes back to the interval. poll.json in
// the state says when it polled, what failed and when it polls next; every
// revision's state says what it waits for (--status prints both).

#include <chrono>
#include <ostream>

#include "watch/watcher.h"

namespace kseries::watch {

enum class PollRepeat { k_once, k_until_stopped };

struct ServiceOptions {
  PollRepeat repeat = PollRepeat::k_until_stopped;
  std::chrono::seconds interval{300};
};

// The wait after FAILURES failed polls in a row (0: the interval).
std::chrono::seconds poll_backoff(int failures, std::chrono::seconds interval);

// Polls as OPTIONS say, writing each poll's report to OUT. With k_once, a
// failed poll throws (the caller's exit code); else it is reported and
// retried. Returns when interrupted (Error(k_interrupted) propagates).
void serve(const WatchRequest& request, WatchServices& services, const ServiceOptions& options,
           std::ostream& out);

// The state's poll record and pending revisions, for --status.
void print_status(const std::filesystem::path& state_dir, std::ostream& out);

}  // namespace kseries::watch
