#include "watch/watch_state.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "core/error.h"
#include "sys/files.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

const std::vector<std::pair<Phase, const char*>> k_phases = {
    {Phase::k_seen, "seen"},        {Phase::k_ignored, "ignored"}, {Phase::k_refused, "refused"},
    {Phase::k_fetched, "fetched"},  {Phase::k_gated, "gated"},     {Phase::k_sending, "sending"},
    {Phase::k_answered, "answered"}};

const std::vector<std::pair<StartKind, const char*>> k_kinds = {
    {StartKind::k_cover, "cover"},
    {StartKind::k_single, "single"},
    {StartKind::k_first_patch, "first-patch"}};

template <typename E>
E enum_of(const std::vector<std::pair<E, const char*>>& table, const std::string& name,
          const char* what) {
  for (const auto& [value, text] : table) {
    if (name == text) {
      return value;
    }
  }
  throw usage_error(std::string("unknown ") + what + " '" + name + "'");
}

template <typename E>
std::string name_of(const std::vector<std::pair<E, const char*>>& table, E value) {
  for (const auto& [v, text] : table) {
    if (v == value) {
      return text;
    }
  }
  return "?";
}

// Writes beside, then renames: the file is the old one or the new one.
void replace_json(const fs::path& file, const nlohmann::json& json) {
  const fs::path partial = file.string() + ".partial";
  write_file(partial, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  fs::rename(partial, file);
}

// A state file as JSON, or Error(k_usage) naming it.
nlohmann::json read_json(const fs::path& file) {
  const auto json = nlohmann::json::parse(read_file(file, 64u << 20), nullptr, false);
  if (!json.is_object()) {
    throw usage_error(file.string() + ": not a watch state file (not a JSON object)");
  }
  return json;
}

}  // namespace

std::string phase_name(Phase phase) { return name_of(k_phases, phase); }
std::string start_kind_name(StartKind kind) { return name_of(k_kinds, kind); }

void to_json(nlohmann::json& json, const Phase& phase) { json = phase_name(phase); }
void from_json(const nlohmann::json& json, Phase& phase) {
  phase = enum_of(k_phases, json.get<std::string>(), "phase");
}
void to_json(nlohmann::json& json, const StartKind& kind) { json = start_kind_name(kind); }
void from_json(const nlohmann::json& json, StartKind& kind) {
  kind = enum_of(k_kinds, json.get<std::string>(), "kind");
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RevisionState, key, message_id, title, author_name,
                                                author_email, list_address, updated, revision,
                                                total, kind, in_reply_to, references, found_in,
                                                phase, stamp, attempts, family, identity,
                                                series_dir, gate_run, verdict, compared_with,
                                                answer, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EpochCursor, url, commit, time, fingerprint)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ArchiveCursor, epochs, list_address, feed_newest,
                                                feed_newest_id, feed_read)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PollRecord, started, finished, last_ok, failures,
                                                last_error, next_poll, source)

WatchState::WatchState(fs::path dir) : m_dir(std::move(dir)) {
  fs::create_directories(m_dir);
  for (const auto& entry : fs::directory_iterator(m_dir)) {
    const fs::path& file = entry.path();
    const std::string name = file.filename().string();
    if (file.extension() != ".json" || name == "archive.json" || name == "poll.json") {
      continue;
    }
    const auto json = read_json(file);
    RevisionState s;
    try {
      s = json.get<RevisionState>();
    } catch (const nlohmann::json::exception& e) {
      throw usage_error(file.string() + ": not a watch state file: " + e.what());
    } catch (const Error& e) {
      throw usage_error(file.string() + ": not a watch state file: " + e.what());
    }
    if (s.message_id.empty() || s.key != key_of(s.message_id) || file.stem() != s.key) {
      throw usage_error(file.string() +
                        ": not a watch state file (its key is not its message-id's)");
    }
    const auto order = json.value("order", std::int64_t{0});
    m_next_order = std::max(m_next_order, order + 1);
    const std::string id = s.message_id;  // (the right side is evaluated first)
    m_by_id[id] = {order, std::move(s)};
  }
}

std::string WatchState::key_of(const std::string& message_id) {
  // FNV-1a of the message-id, with a readable, file-safe head of it.
  std::uint64_t hash = 1469598103934665603ull;
  std::string head;
  for (const char c : message_id) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    if (head.size() < 40) {
      head += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    }
  }
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (int shift = 60; shift >= 0; shift -= 4) {
    hex += digits[(hash >> shift) & 0xf];
  }
  return head + "-" + hex;
}

std::vector<RevisionState> WatchState::all() const {
  std::vector<const std::pair<std::int64_t, RevisionState>*> found;
  for (const auto& [id, entry] : m_by_id) {
    found.push_back(&entry);
  }
  std::sort(found.begin(), found.end(), [](const auto* a, const auto* b) {
    return a->first != b->first ? a->first < b->first : a->second.key < b->second.key;
  });
  std::vector<RevisionState> states;
  for (const auto* entry : found) {
    states.push_back(entry->second);
  }
  return states;
}

const RevisionState* WatchState::find(const std::string& message_id) const {
  const auto it = m_by_id.find(message_id);
  return it == m_by_id.end() ? nullptr : &it->second.second;
}

void WatchState::save(const RevisionState& s) {
  auto it = m_by_id.find(s.message_id);
  const std::int64_t order = it == m_by_id.end() ? m_next_order++ : it->second.first;
  RevisionState stored = s;
  stored.key = key_of(s.message_id);
  nlohmann::json json = stored;
  json["order"] = order;
  replace_json(m_dir / (stored.key + ".json"), json);
  m_by_id[s.message_id] = {order, std::move(stored)};
}

ArchiveCursor WatchState::cursor() const {
  const fs::path file = m_dir / "archive.json";
  if (!fs::exists(file)) {
    return {};
  }
  try {
    return read_json(file).get<ArchiveCursor>();
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": not a watch cursor file: " + e.what());
  }
}

void WatchState::save_cursor(const ArchiveCursor& cursor) const {
  replace_json(m_dir / "archive.json", cursor);
}

PollRecord WatchState::poll_record() const {
  const fs::path file = m_dir / "poll.json";
  if (!fs::exists(file)) {
    return {};
  }
  try {
    return read_json(file).get<PollRecord>();
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": not a watch poll record: " + e.what());
  }
}

void WatchState::save_poll_record(const PollRecord& record) const {
  replace_json(m_dir / "poll.json", record);
}

std::optional<FileLock> lock_watch_state(const fs::path& dir, const std::string& what,
                                         std::string& holder) {
  fs::create_directories(dir);
  return FileLock::try_acquire(dir / "lock", what, holder);
}

}  // namespace kseries::watch
