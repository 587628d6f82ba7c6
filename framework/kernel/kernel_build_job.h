#pragma once
// Inside the kernel builder (kernel_build*.cc): a build in progress, and what
// is thrown when the checkout is not the commit a build is for.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "git/libgit2.h"
#include "kernel/kernel_build.h"
#include "kernel/source_check.h"

namespace kseries::kernel {

struct KernelBuilder::Job {
  const BuildRequest& request;
  std::filesystem::path dir;
  std::string tree_id;
  std::string tree_patch{};  // the target's tree-patch: "" or "tree-patch SHA\n", in the keys
  std::string compiler;
  std::string flags;  // the make arguments but make, -C, O=, -j
  std::filesystem::path request_index{};
  std::string config_text{};
  std::string key{};
  // The target's tree patch: path -> blob id of the patched file ("" for
  // one it deletes), what the checkout holds instead of the commit's blob.
  std::map<std::string, std::string> patched{};
  // Every file of the checkout, stat'ed once it is complete (before make).
  TreeSnapshot before{};
  const Target& target() const { return *request.target; }
  std::filesystem::path commit_index() const {
    return dir / "kernels" / git::to_hex(request.commit);
  }
};

// The checkout is not the commit a build is for: another program wrote to
// it while make ran, or it held other bytes before. Never stored; the
// builder restores the files and builds again.
struct SourcesChanged {
  std::string what;                // one line, for the progress and the error
  std::vector<std::string> paths;  // every file to restore from the commit
};

}  // namespace kseries::kernel
