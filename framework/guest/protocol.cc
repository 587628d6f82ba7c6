#include "guest/protocol.h"

#include <cmath>
#include <cstdlib>

#include "core/text.h"

namespace kseries::guest {

std::string Event::get(const std::string& key, const std::string& fallback) const {
  auto it = fields.find(key);
  return it == fields.end() ? fallback : it->second;
}

std::optional<double> Event::number(const std::string& key) const {
  auto it = fields.find(key);
  if (it == fields.end() || it->second.empty()) {
    return std::nullopt;
  }
  char* end = nullptr;
  const double value = std::strtod(it->second.c_str(), &end);
  if (end == nullptr || *end != '\0') {
    return std::nullopt;
  }
  // Where a guest number enters: inf, nan and magnitudes no measurement
  // reaches are a corrupt or hostile line, not a value to plot or average.
  if (!std::isfinite(value) || std::abs(value) > k_max_guest_number) {
    return std::nullopt;
  }
  return value;
}

namespace {

bool key_start(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }
bool key_char(char c) { return key_start(c) || (c >= '0' && c <= '9') || c == '-'; }

// A "key=" at the start of `rest` or after a space.
struct KeyAt {
  std::string key;
  std::size_t position = 0;     // where the match starts (its leading space)
  std::size_t value_start = 0;  // just past the '='
};

// The length of the key at rest[pos] when "key=" is there, else 0.
std::size_t key_length(std::string_view rest, std::size_t pos) {
  if (pos >= rest.size() || !key_start(rest[pos])) {
    return 0;
  }
  std::size_t end = pos + 1;
  while (end < rest.size() && key_char(rest[end])) {
    ++end;
  }
  return end < rest.size() && rest[end] == '=' ? end - pos : 0;
}

// Every "(^| )key=" of `rest`, left to right, not overlapping: what the
// regex (^| )([a-z_][a-z0-9_-]*)= matched, in linear time (libstdc++'s
// std::regex recurses per character: a long line from a guest overflowed
// the stack).
std::vector<KeyAt> find_keys(std::string_view rest) {
  std::vector<KeyAt> keys;
  std::size_t pos = 0;
  while (pos < rest.size()) {
    std::size_t key_pos = std::string_view::npos;
    if (pos == 0 && key_length(rest, 0) > 0) {
      key_pos = 0;
    } else if (rest[pos] == ' ' && key_length(rest, pos + 1) > 0) {
      key_pos = pos + 1;
    }
    if (key_pos == std::string_view::npos) {
      ++pos;
      continue;
    }
    const std::size_t length = key_length(rest, key_pos);
    keys.push_back({std::string(rest.substr(key_pos, length)), pos, key_pos + length + 1});
    pos = key_pos + length + 1;
  }
  return keys;
}

}  // namespace

std::vector<Event> parse_protocol(std::string_view text) {
  std::vector<Event> events;
  int line_no = 0;
  for (const auto raw : split_lines(text)) {
    ++line_no;
    // The serial port may carry a stray byte before the marker.
    const auto marker = raw.find("KSERIES ");
    if (marker == std::string_view::npos) {
      continue;
    }
    const std::string line(trim(raw.substr(marker + 8)));
    Event event;
    event.line = line_no;
    const auto space = line.find(' ');
    event.verb = line.substr(0, space);
    if (event.verb.empty()) {
      continue;
    }
    const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
    const auto keys = find_keys(rest);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::size_t value_end = k + 1 < keys.size() ? keys[k + 1].position : rest.size();
      std::string value = rest.substr(keys[k].value_start, value_end - keys[k].value_start);
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
      }
      event.fields[keys[k].key] = std::string(trim(value));
    }
    events.push_back(std::move(event));
  }
  return events;
}

std::vector<Measurement> measurements(const std::vector<Event>& events) {
  std::vector<Measurement> out;
  for (const auto& event : events) {
    if (event.verb != "measure") {
      continue;
    }
    const auto value = event.number("value");
    if (!value) {
      continue;
    }
    // A rebind index outside int (or not a whole number) is not a
    // measurement the guest could have made: malformed, left out.
    const auto iter_number = event.number("iter");
    if (!iter_number && !event.get("iter").empty()) {
      continue;  // out of range (1e86) or not a number
    }
    const double iter = iter_number.value_or(0);
    if (!(iter >= 0 && iter <= 1e6) || iter != std::floor(iter)) {
      continue;
    }
    Measurement m;
    m.setup = event.get("setup");
    m.iter = static_cast<int>(iter);
    m.metric = event.get("metric");
    m.value = *value;
    m.unit = event.get("unit");
    m.kind = event.get("kind");
    for (const auto& [key, text] : event.fields) {
      if (key != "setup" && key != "iter" && key != "metric" && key != "value" && key != "unit" &&
          key != "kind") {
        m.extra[key] = text;
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace kseries::guest
