#include "guest/protocol.h"

#include <cstdlib>
#include <regex>

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
  return value;
}

std::vector<Event> parse_protocol(std::string_view text) {
  static const std::regex k_key(R"((^| )([a-z_][a-z0-9_\-]*)=)");
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
    std::vector<std::pair<std::string, std::size_t>> keys;  // key, where its value starts
    std::vector<std::size_t> starts;
    for (std::sregex_iterator it(rest.begin(), rest.end(), k_key), end; it != end; ++it) {
      keys.emplace_back((*it)[2].str(), static_cast<std::size_t>(it->position() + it->length()));
      starts.push_back(static_cast<std::size_t>(it->position()));
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::size_t value_end = k + 1 < keys.size() ? starts[k + 1] : rest.size();
      std::string value = rest.substr(keys[k].second, value_end - keys[k].second);
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
      }
      event.fields[keys[k].first] = std::string(trim(value));
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
    Measurement m;
    m.setup = event.get("setup");
    m.iter = static_cast<int>(event.number("iter").value_or(0));
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
