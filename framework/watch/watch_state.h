#pragma once
// What `kseries watch` knows of each revision it saw, one JSON file per
// revision in the state directory, each replaced whole (written beside it,
// then renamed) at every step, so a kill at any moment leaves either the
// step before or the step after:
//   seen -> fetched (b4 wrote the series) | ignored (no --match)
//        -> gated (the gate's verdict and the answer's text kept)
//        -> answered (the mail is in the outbox; piped to --sendmail)
// A restart takes every revision up where its file says; the outbox file,
// named for the revision, is written once.

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kseries::watch {

enum class Phase { k_seen, k_ignored, k_fetched, k_gated, k_sending, k_answered };
std::string phase_name(Phase phase);

struct RevisionState {
  std::string key;  // file-safe, from the message-id
  std::string message_id;
  std::string title;
  std::string author_name;
  std::string author_email;
  std::string list_address;
  std::string updated;
  int revision = 1;
  int total = 0;
  Phase phase = Phase::k_seen;
  std::string family;  // series/revision_identity.h, once fetched
  std::string identity;
  std::string series_dir;
  std::string gate_run;       // the gate's run directory
  std::string verdict;        // "PASS", "FAIL", "PASS, warning: ..."
  std::string compared_with;  // the previous revision's message-id, if any
  std::string answer;         // the whole mail, once gated
  std::string note;           // why it was ignored, what went wrong
};

class WatchState {
 public:
  explicit WatchState(std::filesystem::path dir);
  // Every revision recorded, in the order they were first seen.
  std::vector<RevisionState> load() const;
  std::optional<RevisionState> find(const std::string& message_id) const;
  void save(const RevisionState& state) const;  // atomically
  const std::filesystem::path& dir() const { return m_dir; }
  static std::string key_of(const std::string& message_id);

 private:
  std::filesystem::path m_dir;
};

}  // namespace kseries::watch
