#pragma once
// kseries errors: one exception type that carries what went wrong, where
// (file, patch, option) and how it maps to the process exit code.

#include <stdexcept>
#include <string>
#include <vector>

namespace kseries {

// Exit codes of every subcommand.
enum class ExitCode : int {
  k_pass = 0,
  k_check_failed = 1,
  k_usage_or_infra = 2,
  k_interrupted = 130,  // SIGINT (SIGTERM: 143, cli::main adds the signal to 128)
};

enum class ErrorKind {
  k_usage,           // bad option, bad input file: exit 2
  k_infrastructure,  // a tool, the disk, libgit2 failed: exit 2
  k_check_failed,    // the thing under test failed a check: exit 1
  k_interrupted,     // SIGINT/SIGTERM (sys/interrupt.h): exit 130/143
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message)
      : std::runtime_error(std::move(message)), m_kind(kind) {}

  ErrorKind kind() const { return m_kind; }
  ExitCode exit_code() const {
    switch (m_kind) {
      case ErrorKind::k_check_failed:
        return ExitCode::k_check_failed;
      case ErrorKind::k_interrupted:
        return ExitCode::k_interrupted;
      default:
        return ExitCode::k_usage_or_infra;
    }
  }
  // Context lines added while the error travels up ("while applying patch 3").
  const std::vector<std::string>& context() const { return m_context; }
  Error& add_context(std::string line) {
    m_context.push_back(std::move(line));
    return *this;
  }
  // The message followed by its context, one line each.
  std::string describe() const;

 private:
  ErrorKind m_kind;
  std::vector<std::string> m_context;
};

inline Error usage_error(std::string message) {
  return Error(ErrorKind::k_usage, std::move(message));
}
inline Error infra_error(std::string message) {
  return Error(ErrorKind::k_infrastructure, std::move(message));
}
inline Error interrupted_error(std::string message) {
  return Error(ErrorKind::k_interrupted, std::move(message));
}
inline Error check_failure(std::string message) {
  return Error(ErrorKind::k_check_failed, std::move(message));
}

}  // namespace kseries
