// Fuzzes the readers of the guest's serial ports: the protocol port
// (parse_protocol, measurements) and the console (triage_console). Both are
// written by the kernel under test and the guest's scripts, so a crashing or
// hostile guest can put any bytes there.
#include <cmath>

#include "fuzz_input.h"
#include "guest/case_status.h"
#include "guest/protocol.h"
#include "guest/triage.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  const auto events = kseries::guest::parse_protocol(text);
  for (const auto& event : events) {
    kseries::fuzz::require(!event.verb.empty());
    for (const auto& [key, value] : event.fields) {
      kseries::fuzz::require(!key.empty());
      // A number enters finite and in range (1.7976931348623157e308 hung
      // the HTML report's axis).
      if (const auto number = event.number(key)) {
        kseries::fuzz::require(std::isfinite(*number) &&
                               std::abs(*number) <= kseries::guest::k_max_guest_number);
      }
    }
  }
  kseries::guest::measurements(events);
  kseries::guest::case_problems(events, {"fsdax-dev", "devdax-mem"});
  kseries::guest::passed_subjects(events);
  for (const auto& finding : kseries::guest::triage_console(text)) {
    kseries::fuzz::require(finding.line >= 1);
  }
  return 0;
}
