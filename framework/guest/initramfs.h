#pragma once
// The guest's initramfs: busybox-static, kseries' /init and protocol helpers,
// the static helpers, and every case in testcases/. Built deterministically
// and cached by content.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sys/process.h"

namespace kseries::guest {

struct InitramfsSources {
  std::filesystem::path testcases;  // the repository's testcases/
  std::filesystem::path busybox = "/bin/busybox";
  // More files: (path inside the initramfs, host file), e.g. a test module
  // built for one kernel at testcases/memmap-dump/memmap_dump.ko.
  std::vector<std::pair<std::string, std::filesystem::path>> extra_files;
  // The compiler of the static helpers, for the guest's architecture
  // ("gcc", "aarch64-linux-gnu-gcc").
  std::string cc = "gcc";
};

// Returns <cache_dir>/initramfs-<content hash>.cpio, building it (and the
// static helpers, with gcc -static) only when missing. Throws Error naming
// what is missing (busybox-static, gcc).
std::filesystem::path build_initramfs(const InitramfsSources& sources,
                                      const std::filesystem::path& cache_dir,
                                      ProcessRunner& runner);

}  // namespace kseries::guest
