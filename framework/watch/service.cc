#include "watch/service.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <thread>

#include "core/error.h"
#include "core/utf8.h"
#include "sys/interrupt.h"
#include "sys/utc_time.h"
#include "watch/watch_state.h"

namespace kseries::watch {

namespace {

std::string iso_now(std::chrono::seconds ahead = std::chrono::seconds(0)) {
  return utc_time_at(std::time(nullptr) + ahead.count(), "%Y-%m-%dT%H:%M:%SZ");
}

constexpr std::size_t k_pending_shown = 20;

void report(const WatchRequest& request, const PollSummary& summary, std::ostream& out) {
  for (const auto& note : summary.notes) {
    out << "watch: " << printable_text(note) << "\n";
  }
  out << "watch: read " << summary.messages << " message(s) from " << summary.source;
  if (!summary.skipped.empty()) {
    out << "; not revisions: " << summary.skipped;
  }
  out << "\n";
  for (const auto& line : summary.lines) {
    out << printable_text(line) << "\n";
  }
  out << "watch: " << summary.new_revisions << " new revision(s), " << summary.answered
      << " answer(s) written to " << request.outbox.string() << "\n";
  for (std::size_t i = 0; i < summary.pending.size() && i < k_pending_shown; ++i) {
    out << "watch: pending: " << printable_text(summary.pending[i]) << "\n";
  }
  if (summary.pending.size() > k_pending_shown) {
    out << "watch: pending: ... and " << summary.pending.size() - k_pending_shown
        << " more (kseries watch --status)\n";
  }
}

void wait_for(std::chrono::seconds wait, const std::string& inbox) {
  const auto end = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < end) {
    throw_if_interrupted("waiting for the next poll of " + inbox);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace

std::chrono::seconds poll_backoff(int failures, std::chrono::seconds interval) {
  if (failures <= 0) {
    return interval;
  }
  const auto first = std::min(interval, std::chrono::seconds(15));
  const auto most = std::max(interval, std::chrono::seconds(600));
  auto wait = first;
  for (int i = 1; i < failures && wait < most; ++i) {
    wait *= 2;
  }
  return std::min(wait, most);
}

void serve(const WatchRequest& request, WatchServices& services, const ServiceOptions& options,
           std::ostream& out) {
  const WatchState state(request.state_dir);
  PollRecord record = state.poll_record();
  while (true) {
    record.started = iso_now();
    std::chrono::seconds wait = options.interval;
    try {
      const auto summary = poll_once(request, services);
      report(request, summary, out);
      record.failures = 0;
      record.last_ok = record.started;
      record.last_error.clear();
      record.source = summary.source;
    } catch (const std::exception& e) {
      const auto* error = dynamic_cast<const Error*>(&e);
      if (error && error->kind() == ErrorKind::k_interrupted) {
        throw;
      }
      ++record.failures;
      record.last_error = printable_text(e.what()).substr(0, 1000);
      wait = poll_backoff(record.failures, options.interval);
      record.finished = iso_now();
      record.next_poll = options.repeat == PollRepeat::k_once ? "" : iso_now(wait);
      state.save_poll_record(record);
      if (options.repeat == PollRepeat::k_once) {
        throw;
      }
      out << "watch: poll failed (" << record.failures << " in a row; last good poll "
          << (record.last_ok.empty() ? "none" : record.last_ok) << "): " << record.last_error
          << "; next poll in " << wait.count() << " s\n"
          << std::flush;
      wait_for(wait, request.inbox_url);
      continue;
    }
    record.finished = iso_now();
    record.next_poll = options.repeat == PollRepeat::k_once ? "" : iso_now(wait);
    state.save_poll_record(record);
    out << std::flush;
    if (options.repeat == PollRepeat::k_once) {
      return;
    }
    wait_for(wait, request.inbox_url);
  }
}

void print_status(const std::filesystem::path& state_dir, std::ostream& out) {
  if (!std::filesystem::is_directory(state_dir)) {
    out << "watch: no state yet in " << state_dir.string() << " (this watch has not polled)\n";
    return;
  }
  const WatchState state(state_dir);
  const PollRecord record = state.poll_record();
  out << "watch: state " << state_dir.string() << "\n"
      << "watch: last poll " << (record.started.empty() ? "none" : record.started)
      << (record.failures > 0
              ? ", failed (" + std::to_string(record.failures) + " in a row): " + record.last_error
              : std::string(record.started.empty() ? "" : ", good"))
      << "\n"
      << "watch: last good poll " << (record.last_ok.empty() ? "none" : record.last_ok)
      << (record.source.empty() ? "" : " (" + record.source + ")") << "\n";
  if (!record.next_poll.empty()) {
    out << "watch: next poll " << record.next_poll << "\n";
  }
  const ArchiveCursor cursor = state.cursor();
  for (const auto& [number, epoch] : cursor.epochs) {
    out << "watch: epoch " << number << " read up to "
        << (epoch.commit.empty() ? "its start" : "commit " + epoch.commit) << "\n";
  }
  std::map<std::string, std::size_t> phases;
  for (const auto& s : state.all()) {
    ++phases[phase_name(s.phase)];
  }
  std::string counts;
  for (const auto& [phase, count] : phases) {
    counts += (counts.empty() ? "" : ", ") + std::to_string(count) + " " + phase;
  }
  out << "watch: revisions: " << (counts.empty() ? "none" : counts) << "\n";
  for (const auto& line : pending_lines(state_dir)) {
    out << "watch: pending: " << printable_text(line) << "\n";
  }
}

}  // namespace kseries::watch
