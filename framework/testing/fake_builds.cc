#include "testing/fake_builds.h"

#include <stdexcept>

#include "core/error.h"
#include "git/libgit2.h"

namespace kseries::testing {

kernel::StepResult FakeBuilds::build(const kernel::BuildRequest& request) {
  const std::string commit = git::to_hex(request.commit);
  requests.push_back({request.target->name, commit, request.test_modules, request.configure_only});
  kernel::StepResult result;
  result.log = request.log;
  result.seconds = 1;
  if (throwing.count(requests.size() - 1)) {
    throw Error(ErrorKind::k_infrastructure, "make: No space left on device");
  }
  if (buggy.count(requests.size() - 1)) {
    // What std::string::substr threw in module_build's tail of an empty log.
    throw std::out_of_range("basic_string::substr: __pos (which is 1) > this->size() (which is 0)");
  }
  if (failing.count(requests.size() - 1)) {
    result.status = kernel::StepStatus::k_build_failed;
    result.errors.push_back({kernel::Severity::k_error, "mm/broken.c", 3, 1, "oops", ""});
    return result;
  }
  result.status = kernel::StepStatus::k_built;
  kernel::KernelBuild kernel;
  kernel.key = "k-" + commit.substr(0, 12);
  kernel.target = request.target->name;
  kernel.commit = commit;
  result.kernel = kernel;
  return result;
}

std::optional<kernel::KernelBuild> FakeBuilds::find(const kernel::Target&, const git_oid&) const {
  return std::nullopt;
}

}  // namespace kseries::testing
