#include "session/session.h"

namespace kseries::session {

std::string role_name(KernelRole role) {
  switch (role) {
    case KernelRole::k_base:
      return "base";
    case KernelRole::k_reference:
      return "reference";
    case KernelRole::k_candidate:
      return "candidate";
    case KernelRole::k_control:
      return "control";
  }
  return "?";
}

bool is_baseline(KernelRole role) {
  return role == KernelRole::k_base || role == KernelRole::k_reference;
}

}  // namespace kseries::session
