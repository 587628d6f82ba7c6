#include "watch/watch_state.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "core/error.h"
#include "sys/files.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

const std::vector<std::pair<Phase, const char*>> k_phases = {
    {Phase::k_seen, "seen"},   {Phase::k_ignored, "ignored"}, {Phase::k_fetched, "fetched"},
    {Phase::k_gated, "gated"}, {Phase::k_sending, "sending"}, {Phase::k_answered, "answered"}};

Phase phase_of(const std::string& name) {
  for (const auto& [phase, text] : k_phases) {
    if (name == text) {
      return phase;
    }
  }
  throw usage_error("watch state: unknown phase '" + name + "'");
}

}  // namespace

std::string phase_name(Phase phase) {
  for (const auto& [p, text] : k_phases) {
    if (p == phase) {
      return text;
    }
  }
  return "?";
}

WatchState::WatchState(fs::path dir) : m_dir(std::move(dir)) { fs::create_directories(m_dir); }

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

std::vector<RevisionState> WatchState::load() const {
  std::vector<std::pair<std::int64_t, RevisionState>> found;
  for (const auto& entry : fs::directory_iterator(m_dir)) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    const auto json = nlohmann::json::parse(read_file(entry.path()), nullptr, false);
    if (!json.is_object()) {
      throw usage_error(entry.path().string() + ": not a watch state file");
    }
    RevisionState s;
    s.key = json.value("key", "");
    s.message_id = json.value("message_id", "");
    s.title = json.value("title", "");
    s.author_name = json.value("author_name", "");
    s.author_email = json.value("author_email", "");
    s.list_address = json.value("list_address", "");
    s.updated = json.value("updated", "");
    s.revision = json.value("revision", 1);
    s.total = json.value("total", 0);
    s.phase = phase_of(json.value("phase", "seen"));
    s.family = json.value("family", "");
    s.identity = json.value("identity", "");
    s.series_dir = json.value("series_dir", "");
    s.gate_run = json.value("gate_run", "");
    s.verdict = json.value("verdict", "");
    s.compared_with = json.value("compared_with", "");
    s.answer = json.value("answer", "");
    s.note = json.value("note", "");
    found.emplace_back(json.value("order", std::int64_t{0}), std::move(s));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.key < b.second.key;
  });
  std::vector<RevisionState> states;
  for (auto& [order, state] : found) {
    states.push_back(std::move(state));
  }
  return states;
}

std::optional<RevisionState> WatchState::find(const std::string& message_id) const {
  const fs::path file = m_dir / (key_of(message_id) + ".json");
  if (!fs::exists(file)) {
    return std::nullopt;
  }
  for (auto& state : load()) {
    if (state.message_id == message_id) {
      return state;
    }
  }
  return std::nullopt;
}

void WatchState::save(const RevisionState& s) const {
  const fs::path file = m_dir / (s.key + ".json");
  std::int64_t order = 0;
  if (fs::exists(file)) {
    const auto old = nlohmann::json::parse(read_file(file), nullptr, false);
    order = old.is_object() ? old.value("order", std::int64_t{0}) : 0;
  } else {
    for (const auto& entry : fs::directory_iterator(m_dir)) {
      order += entry.path().extension() == ".json" ? 1 : 0;
    }
    ++order;
  }
  const nlohmann::json json = {{"key", s.key},
                               {"order", order},
                               {"message_id", s.message_id},
                               {"title", s.title},
                               {"author_name", s.author_name},
                               {"author_email", s.author_email},
                               {"list_address", s.list_address},
                               {"updated", s.updated},
                               {"revision", s.revision},
                               {"total", s.total},
                               {"phase", phase_name(s.phase)},
                               {"family", s.family},
                               {"identity", s.identity},
                               {"series_dir", s.series_dir},
                               {"gate_run", s.gate_run},
                               {"verdict", s.verdict},
                               {"compared_with", s.compared_with},
                               {"answer", s.answer},
                               {"note", s.note}};
  const fs::path partial = m_dir / (s.key + ".json.partial");
  write_file(partial, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  fs::rename(partial, file);
}

}  // namespace kseries::watch
