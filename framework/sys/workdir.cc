#include "sys/workdir.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "core/error.h"
#include "sys/utc_time.h"

namespace kseries {

WorkDir::WorkDir(std::filesystem::path root) : m_root(std::move(root)) {
  std::error_code ec;
  std::filesystem::create_directories(runs(), ec);
  if (ec) {
    throw infra_error("cannot create work directory " + runs().string() + ": " + ec.message());
  }
}

std::filesystem::path WorkDir::default_root() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "kseries";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".cache" / "kseries";
  }
  throw usage_error("neither XDG_CACHE_HOME nor HOME is set: pass --workdir");
}

std::filesystem::path WorkDir::new_run(std::string_view command) const {
  const std::string base = utc_time_now("%Y%m%d-%H%M%S") + "-" + std::string(command);
  for (int n = 0; n < 1000; ++n) {
    auto dir = runs() / (n == 0 ? base : base + "-" + std::to_string(n));
    if (::mkdir(dir.c_str(), 0755) == 0) {
      m_newest_run = dir;
      return dir;
    }
    if (errno != EEXIST) {
      throw infra_error("cannot create run directory " + dir.string() + ": " +
                        std::strerror(errno));
    }
  }
  throw infra_error("too many runs named " + base + " in " + runs().string());
}

void WorkDir::point_latest() const {
  if (!m_newest_run) {
    return;
  }
  // A new link renamed over the old one: readers never see no link.
  const auto latest = runs() / "latest";
  const auto staged = runs() / (".latest-" + m_newest_run->filename().string());
  std::error_code ec;
  std::filesystem::remove(staged, ec);
  std::filesystem::create_directory_symlink(m_newest_run->filename(), staged, ec);
  if (!ec) {
    std::filesystem::rename(staged, latest, ec);
  }
}

}  // namespace kseries
