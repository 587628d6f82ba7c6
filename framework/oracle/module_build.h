#pragma once
// Builds the memmap dumper (testcases/memmap-dump) as an out-of-tree module
// against the kernel under test: the source is copied to OUT_DIR (make M=
// writes objects next to the source, and kernel build dirs are shared and
// read only), then `make -C KERNEL_BUILD_DIR M=OUT_DIR modules` runs there.

#include <filesystem>

#include "sys/process.h"

namespace kseries::oracle {

// The .ko's path (OUT_DIR/memmap_dump.ko). Throws Error(k_usage) when the
// kernel build dir has no Module.symvers / .config (not a MODULES=y build)
// or the source dir has no Kbuild; Error(k_infrastructure) with the tail of
// make's output when the build fails or leaves no .ko.
std::filesystem::path build_module(const std::filesystem::path& kernel_build_dir,
                                   const std::filesystem::path& module_source_dir,
                                   const std::filesystem::path& out_dir, ProcessRunner& runner);

}  // namespace kseries::oracle
