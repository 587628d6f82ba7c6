#include "watch/outbox.h"

#include "core/text.h"
#include "sys/failpoint.h"
#include "sys/files.h"

namespace kseries::watch {

namespace fs = std::filesystem;

bool send_answer(const WatchRequest& request, WatchServices& services, WatchState& state,
                 RevisionState& s) {
  const fs::path mail = request.outbox / (s.key + ".eml");
  bool wrote = false;
  if (s.phase == Phase::k_gated) {
    if (!fs::exists(mail)) {
      const fs::path partial = request.outbox / ("." + s.key + ".eml.partial");
      write_file(partial, s.answer);
      fs::rename(partial, mail);
      wrote = true;
    }
    failpoint("watch-answered");
    if (request.sendmail.empty()) {
      s.phase = Phase::k_answered;
      state.save(s);
      return wrote;
    }
    s.phase = Phase::k_sending;
    state.save(s);
    ProcessSpec spec;
    spec.argv = request.sendmail;
    spec.stdin_file = mail;
    spec.timeout = std::chrono::minutes(2);
    const auto result = services.runner.run(spec);
    if (!result.ok()) {
      // The command did not take it: the next poll tries again.
      s.phase = Phase::k_gated;
      ++s.attempts;
      s.note =
          "--sendmail " + result.describe() + " (attempt " + std::to_string(s.attempts) +
          "), will try again at the next poll: " + std::string(trim(result.err)).substr(0, 200);
      state.save(s);
      return wrote;
    }
    s.phase = Phase::k_answered;
    state.save(s);
    return true;
  }
  if (s.phase == Phase::k_sending) {
    // Killed while --sendmail ran: it may have sent it. At most once.
    s.phase = Phase::k_answered;
    s.note = "--sendmail was running when kseries stopped: not sent again (see " +
             mail.filename().string() + " in the outbox)";
    state.save(s);
  }
  return false;
}

}  // namespace kseries::watch
