#include "sys/utc_time.h"

#include <ctime>

namespace kseries {

std::string utc_time_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[128];
  const std::size_t size = std::strftime(buffer, sizeof buffer, format, &utc);
  return std::string(buffer, size);
}

}  // namespace kseries
