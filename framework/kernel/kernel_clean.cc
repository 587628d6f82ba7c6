#include "kernel/kernel_clean.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

namespace {

// Renamed first (atomic), then deleted: a kill in between leaves a
// "*.removed" directory no lookup reads, never half a kernel.
void remove_dir(const fs::path& dir) {
  const fs::path gone = dir.string() + ".removed";
  fs::remove_all(gone);
  fs::rename(dir, gone);
  fs::remove_all(gone);
}

}  // namespace

CleanResult clean_kernel_cache(const fs::path& workdir_root, const std::string& target,
                               const std::vector<std::string>& trees, CleanScope scope) {
  CleanResult result;
  const fs::path target_dir = workdir_root / "targets" / target;
  fs::create_directories(target_dir);
  // The builder's lock: no make is running in the build directory we remove.
  const int lock = ::open((target_dir / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) {
    throw infra_error("cannot open " + (target_dir / "lock").string());
  }
  struct LockGuard {
    int fd;
    ~LockGuard() { ::close(fd); }
  } guard{lock};
  ::flock(lock, LOCK_EX);

  const fs::path kernels = workdir_root / "kernels";
  if (fs::is_directory(kernels)) {
    for (const auto& entry : fs::directory_iterator(kernels)) {
      const fs::path build_json = entry.path() / "build.json";
      if (!fs::is_regular_file(build_json)) {
        continue;
      }
      const auto json = nlohmann::json::parse(read_file(build_json), nullptr, false);
      if (!json.is_object() || json.value("target", "") != target ||
          std::find(trees.begin(), trees.end(), json.value("tree", "")) == trees.end()) {
        continue;
      }
      result.kernels.push_back(entry.path());
    }
  }
  std::sort(result.kernels.begin(), result.kernels.end());
  for (const auto& dir : result.kernels) {
    remove_dir(dir);
  }
  if (scope == CleanScope::k_kernels) {
    return result;
  }
  if (fs::exists(target_dir / "build")) {
    remove_dir(target_dir / "build");
    result.build_dir = true;
  }
  // The warnings of the build directory's last builds: a clean make starts over.
  fs::remove(target_dir / "warnings.tsv");
  return result;
}

}  // namespace kseries::kernel
