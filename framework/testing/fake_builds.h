#pragma once
// A kernel builder that builds nothing (kernel/kernel_build.h's seam): each
// request is kept, and answered "built" with a kernel whose key names the
// commit, or "does not build" for the commits told to fail.

#include <set>
#include <string>
#include <vector>

#include "kernel/kernel_build.h"

namespace kseries::testing {

class FakeBuilds : public kernel::KernelBuilds {
 public:
  kernel::StepResult build(const kernel::BuildRequest& request) override;
  std::optional<kernel::KernelBuild> find(const kernel::Target& target,
                                          const git_oid& commit) const override;

  // The builds (by their order, from 0) that fail with an error in
  // mm/broken.c.
  std::set<std::size_t> failing;
  // The builds that throw Error(k_infrastructure), as a full disk does.
  std::set<std::size_t> throwing;
  // The builds that throw std::out_of_range, as a bug in kseries does.
  std::set<std::size_t> buggy;
  struct Seen {
    std::string target;
    std::string commit;  // hex
    std::vector<std::filesystem::path> test_modules;
    bool configure_only = false;
  };
  std::vector<Seen> requests;
};

}  // namespace kseries::testing
