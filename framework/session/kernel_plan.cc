#include "session/kernel_plan.h"

namespace kseries::session {

std::vector<KernelRole> session_roles(const Pairing& pairing) {
  if (!pairing.series) {
    // The base is the subject; asked to compare, it is compared with itself.
    if (pairing.baseline_asked) {
      return {KernelRole::k_base, KernelRole::k_control};
    }
    return {KernelRole::k_base};
  }
  const bool baseline = pairing.baseline_asked ||
                        (pairing.oracle ? pairing.oracle->needs_baseline() : pairing.judge_timing);
  std::vector<KernelRole> roles;
  if (pairing.against) {
    roles.push_back(KernelRole::k_reference);
  } else if (baseline) {
    roles.push_back(KernelRole::k_base);
  }
  roles.push_back(KernelRole::k_candidate);
  return roles;
}

}  // namespace kseries::session
