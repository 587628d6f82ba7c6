#pragma once
// Builds an out-of-tree test module (a testcases/ directory with a Kbuild,
// e.g. testcases/memmap-dump) against a kernel build directory: the source
// is copied to OUT_DIR (make M= writes objects next to the source, and the
// kernel build directory is shared), then
// `make -C KERNEL_BUILD_DIR M=OUT_DIR <make_args> modules` runs there.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sys/process.h"

namespace kseries::kernel {

struct ModuleBuildSpec {
  std::filesystem::path kernel_build_dir;  // a built O= directory (Module.symvers)
  std::filesystem::path source_dir;        // holds Kbuild and the sources
  std::filesystem::path out_dir;           // emptied, then the build happens here
  std::vector<std::string> make_args;      // e.g. "CC=ccache gcc", "LLVM=-16"
  std::map<std::string, std::string> env;
};

// The .ko files built (sorted). Throws Error(k_usage) when the kernel build
// dir has no Module.symvers / .config (not a MODULES=y build) or the source
// dir has no Kbuild; Error(k_infrastructure) with the tail of make's output
// when the build fails or leaves no .ko.
std::vector<std::filesystem::path> build_module(const ModuleBuildSpec& spec, ProcessRunner& runner);

// A hash of the module's source files (what build_module copies): a module
// built from other sources is rebuilt.
std::string module_source_hash(const std::filesystem::path& source_dir);

}  // namespace kseries::kernel
