#include "watch/gmime_handles.h"

#include <mutex>

namespace kseries::watch {

void ensure_gmime() {
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

}  // namespace kseries::watch
