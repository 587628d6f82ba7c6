#pragma once
// The time now, in UTC, as text: the one place kseries turns the clock
// into a string (a run directory's name, gate.json's times, a JUnit
// timestamp, a mail's Date:).

#include <cstdint>
#include <string>

namespace kseries {

// Now, UTC, in FORMAT (strftime's, under the C locale: "%a" is "Mon"):
// "%Y-%m-%dT%H:%M:%SZ" -> "2026-12-02T15:04:05Z".
std::string utc_time_now(const char* format);
// The same for SECONDS since the epoch.
std::string utc_time_at(std::int64_t seconds, const char* format);

}  // namespace kseries
