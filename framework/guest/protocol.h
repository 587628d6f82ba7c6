#pragma once
// The guest -> host protocol (testcases/README.md): "KSERIES <verb> k=v ..."
// lines on the guest's second serial port.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::guest {

struct Event {
  int line = 0;  // 1-based line in the protocol log
  std::string verb;
  std::map<std::string, std::string> fields;

  std::string get(const std::string& key, const std::string& fallback = "") const;
  std::optional<double> number(const std::string& key) const;
};

// Parses every "KSERIES " line; other lines (noise, a torn last line) are
// skipped. A value runs to the next " key=" or the end of the line, so the
// last field may contain spaces.
std::vector<Event> parse_protocol(std::string_view text);

// One measurement: "KSERIES measure setup=S iter=N metric=M value=V unit=U ...".
struct Measurement {
  std::string setup;
  int iter = 0;
  std::string metric;
  double value = 0;
  std::string unit;
  std::string kind;  // "first", "rebind", "probe"
  std::map<std::string, std::string> extra;
};
std::vector<Measurement> measurements(const std::vector<Event>& events);

}  // namespace kseries::guest
