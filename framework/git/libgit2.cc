#include "git/libgit2.h"

#include "core/error.h"

namespace kseries::git {

std::string last_error_message() {
  const git_error* error = git_error_last();
  return error && error->message ? std::string(error->message) : std::string("unknown error");
}

void check(int rc, std::string_view what) {
  if (rc < 0) {
    throw infra_error(std::string(what) + ": " + last_error_message());
  }
}

FailureSource failure_source(int rc) {
  const git_error* error = git_error_last();
  if (rc == GIT_EAPPLYFAIL || error == nullptr) {
    return FailureSource::k_input;
  }
  switch (error->klass) {
    case GIT_ERROR_OS:
    case GIT_ERROR_ODB:
    case GIT_ERROR_FILESYSTEM:
    case GIT_ERROR_NOMEMORY:
    case GIT_ERROR_ZLIB:
      return FailureSource::k_infrastructure;
    default:
      return FailureSource::k_input;
  }
}

std::string to_hex(const git_oid& oid) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, &oid);
  return buffer;
}

git_oid from_hex(std::string_view hex) {
  git_oid oid;
  if (hex.size() != GIT_OID_HEXSZ || git_oid_fromstrn(&oid, hex.data(), hex.size()) < 0) {
    throw usage_error("not a full commit id: '" + std::string(hex) + "'");
  }
  return oid;
}

}  // namespace kseries::git
