#pragma once
// The build stage of a session: each kernel built (or found in the cache)
// with the test modules its case loads, and one initramfs per kernel. A
// kernel that does not build is returned as a reason, not thrown: a gate
// goes on with its other cells.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cases/case_def.h"
#include "kernel/kernel_build.h"
#include "kernel/target.h"
#include "session/session.h"
#include "sys/process.h"

namespace kseries::session {

// The test modules a session builds against its kernels: the case's, and
// the memmap dumper when TARGET has `struct-page:` (the builder reads the
// size from it, whatever the case).
std::vector<std::filesystem::path> kernel_module_dirs(const cases::CaseDef& test_case,
                                                      const kernel::Target& target,
                                                      const std::filesystem::path& testcases);

// Builds every kernel of KERNELS for TARGET, with TEST_MODULES (its log in
// RUN_DIR); the reason the first one that cannot be had fails ("does not
// build", with the first errors; "not constructible", with the dropped
// symbols).
std::optional<std::string> build_kernels(std::vector<KernelUnderTest>& kernels,
                                         const kernel::Target& target,
                                         const std::vector<std::filesystem::path>& test_modules,
                                         kernel::KernelBuilds& builder,
                                         const std::filesystem::path& run_dir, Status& status);

// One initramfs per kernel: the testcases plus the test modules built for
// that kernel. Throws Error(k_infra) when a module the case needs is missing.
void build_initramfs_for(std::vector<KernelUnderTest>& kernels, const kernel::Target& target,
                         const cases::CaseDef& test_case, const std::filesystem::path& testcases,
                         const std::filesystem::path& cache_dir, ProcessRunner& runner);

}  // namespace kseries::session
