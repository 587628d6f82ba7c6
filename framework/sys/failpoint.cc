#include "sys/failpoint.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>

namespace kseries {

void failpoint(std::string_view name) {
  const char* env = std::getenv("KSERIES_FAILPOINT");
  if (!env) {
    return;
  }
  const std::string spec(env);
  const auto colon = spec.find(':');
  if (spec.substr(0, colon) != name) {
    return;
  }
  const int at = colon == std::string::npos ? 1 : std::atoi(spec.c_str() + colon + 1);
  static std::map<std::string, int, std::less<>> passes;
  if (++passes[std::string(name)] == at) {
    ::kill(::getpid(), SIGKILL);
  }
}

}  // namespace kseries
