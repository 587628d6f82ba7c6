#include "sys/utc_time.h"

#include <ctime>

namespace kseries {

std::string utc_time_at(std::int64_t seconds, const char* format) {
  const auto when = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&when, &utc);
  char buffer[128];
  const std::size_t size = std::strftime(buffer, sizeof buffer, format, &utc);
  return std::string(buffer, size);
}

std::string utc_time_now(const char* format) { return utc_time_at(std::time(nullptr), format); }

}  // namespace kseries
