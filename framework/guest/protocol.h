#pragma once
// The guest -> host protocol (testcases/README.md): "KSERIES <verb> k=v ..."
// lines on the guest's second serial port.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::guest {

// The largest magnitude a guest number may have: 1e15 is 11.6 days in
// nanoseconds or a petabyte in bytes. Beyond it (or inf, nan) a value is
// malformed: Event::number() reads none.
constexpr double k_max_guest_number = 1e15;

struct Event {
  int line = 0;  // 1-based line in the protocol log
  std::string verb;
  std::map<std::string, std::string> fields;

  std::string get(const std::string& key, const std::string& fallback = "") const;
  // The field as a finite number within ±k_max_guest_number, else none.
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
