#include "cli/junit_guard.h"

#include <algorithm>
#include <iostream>

namespace kseries::cli {

std::optional<std::string> junit_option(const std::vector<std::string>& args) {
  if (std::any_of(args.begin(), args.end(),
                  [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    return std::nullopt;
  }
  std::optional<std::string> file;
  for (std::size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] == "--junit" && i + 1 < args.size()) {
      file = args[++i];
    } else if (args[i].rfind("--junit=", 0) == 0) {
      file = args[i].substr(8);
    }
  }
  if (file && file->empty()) {
    return std::nullopt;  // a usage error of its own; nowhere to write
  }
  return file;
}

std::optional<std::string> junit_option(const std::string& command,
                                        const std::vector<std::string>& args) {
  static const std::vector<std::string> k_with_junit = {"apply", "build", "boot",
                                                        "gate",  "merge", "bisect"};
  if (std::find(k_with_junit.begin(), k_with_junit.end(), command) == k_with_junit.end()) {
    return std::nullopt;
  }
  return junit_option(args);
}

std::vector<report::TestSuite> early_end_report(const std::string& command, const std::string& end,
                                                const std::string& message,
                                                report::CaseStatus status) {
  report::TestSuite suite;
  suite.name = "kseries " + command;
  suite.timestamp = report::utc_timestamp();
  report::TestCase test;
  test.classname = "kseries." + command;
  test.name = end;
  test.status = status;
  test.message = message.substr(0, message.find('\n'));
  if (test.message.size() < message.size()) {
    test.detail = message.substr(test.message.size() + 1);
  }
  suite.cases.push_back(std::move(test));
  return {suite};
}

JunitGuard::JunitGuard(std::string command, const std::vector<std::string>& args)
    : m_command(std::move(command)), m_file(junit_option(m_command, args)) {}

void JunitGuard::arm() const {
  if (!m_file || *m_file == "-") {
    return;
  }
  report::write_junit(*m_file,
                      early_end_report(m_command, "did not finish",
                                       "kseries " + m_command +
                                           " did not finish: killed (SIGKILL, out of memory, "
                                           "a signal outside a child) or still running",
                                       report::CaseStatus::k_error));
}

void JunitGuard::record(const Error& error) const {
  switch (error.kind()) {
    case ErrorKind::k_usage:
      write("usage error", error.describe(), report::CaseStatus::k_error);
      break;
    case ErrorKind::k_infrastructure:
      write("infrastructure error", error.describe(), report::CaseStatus::k_error);
      break;
    case ErrorKind::k_interrupted:
      write("interrupted", error.describe(), report::CaseStatus::k_error);
      break;
    case ErrorKind::k_check_failed:
      write("check failed", error.describe(), report::CaseStatus::k_failed);
      break;
  }
}

void JunitGuard::record_internal(const std::string& what) const {
  write("internal error", what, report::CaseStatus::k_error);
}

void JunitGuard::write(const std::string& end, const std::string& message,
                       report::CaseStatus status) const {
  if (!m_file) {
    return;
  }
  try {
    report::write_junit(*m_file, early_end_report(m_command, end, message, status));
  } catch (const std::exception& e) {
    std::cerr << "kseries " << m_command << ": cannot write the JUnit report: " << e.what() << "\n";
  }
}

}  // namespace kseries::cli
