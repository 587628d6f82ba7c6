#pragma once
// A test payload: the kernel's own tests (selftests, in-tree test modules,
// the KTAP parser) built from the tree under test, beside a kernel. A
// testcases/ directory with a Makefile and no Kbuild is one. Its Makefile
// names the tree's files it needs on a `KSERIES_EXPORT := path...` line;
// those are exported from the commit (the object store, not the checkout,
// so the sources are the commit's by construction) into OUT_DIR/src, and
// `make -f <dir>/Makefile` runs with
//   SRC     the export          KSRC    the checkout (for `make headers`)
//   KBUILD  the kernel's O= directory, holding this very kernel's make
//   OUT     where the payload goes: exactly one OUT/*.tar for the guest,
//           and whatever the host needs beside it (OUT/kunit/kunit.py)
//   KCC     the target's C compiler ("ccache gcc")
//   JOBS    make -j for the payload's builds (the kernel's)
// (docs/selftests.md).

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "git/store.h"
#include "sys/process.h"

namespace kseries::kernel {

// A directory with a Makefile and no Kbuild.
bool is_test_payload(const std::filesystem::path& source_dir);

// The paths on the Makefile's `KSERIES_EXPORT :=` line (tree-relative; no
// "..", no leading '/'). Throws Error(k_usage) naming the Makefile when the
// line is missing, empty or names a path outside the tree.
std::vector<std::string> payload_exports(const std::filesystem::path& source_dir);

struct PayloadBuildSpec {
  std::filesystem::path kernel_src;        // the target's checkout
  std::filesystem::path kernel_build_dir;  // its O= directory, just made
  std::filesystem::path source_dir;        // testcases/<payload>
  std::filesystem::path out_dir;           // emptied, then the build happens here
  std::string cc;                          // "ccache gcc"
  std::size_t jobs = 1;                    // make -j for the payload's own builds
  std::map<std::string, std::string> env;
};

// Exports the payload's paths of COMMIT into OUT_DIR/src and runs its
// Makefile. Returns the payload (OUT_DIR's one .tar). Throws
// Error(k_infrastructure) with the tail of make's output when make fails or
// leaves no single .tar, and Error(k_usage) for a malformed Makefile.
std::filesystem::path build_payload(const PayloadBuildSpec& spec, git::Store& store,
                                    const git_oid& commit, ProcessRunner& runner);

}  // namespace kseries::kernel
