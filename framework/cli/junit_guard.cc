#include "cli/junit_guard.h"

#include <algorithm>
#include <iostream>

#include "sys/file_streams.h"
#include "sys/files.h"

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
    : m_command(std::move(command)),
      m_file(junit_option(m_command, args)),
      m_stream(m_file && *m_file != "-" && is_stream(*m_file)) {}

JunitGuard::~JunitGuard() {
  if (m_private) {
    std::error_code ec;
    std::filesystem::remove(*m_private, ec);
  }
}

std::vector<std::string> JunitGuard::arguments(const std::vector<std::string>& args) const {
  std::vector<std::string> out = args;
  if (!m_private) {
    return out;
  }
  for (std::size_t i = 0; i < out.size() && out[i] != "--"; ++i) {
    if (out[i] == "--junit" && i + 1 < out.size()) {
      out[++i] = m_private->string();
    } else if (out[i].rfind("--junit=", 0) == 0) {
      out[i] = "--junit=" + m_private->string();
    }
  }
  return out;
}

namespace {

// DOCUMENT padded with a comment to SIZE bytes (a comment may follow the
// root element).
std::string padded(std::string document, std::size_t size) {
  const std::string open = "<!-- room for the report that replaces this one";
  const std::string close = " -->\n";
  if (document.size() + open.size() + close.size() < size) {
    document +=
        open + std::string(size - document.size() - open.size() - close.size(), ' ') + close;
  }
  return document;
}

}  // namespace

void JunitGuard::arm() const {
  if (m_stream) {
    m_private = make_private_file("kseries-junit");
    return;
  }
  if (!m_file || *m_file == "-") {
    return;
  }
  const auto placeholder = early_end_report(
      m_command, "did not finish",
      "kseries " + m_command +
          " did not finish: killed (SIGKILL, out of memory, a signal outside a child) or still "
          "running",
      report::CaseStatus::k_error);
  replace_file(*m_file,
               padded(report::render_junit(placeholder, report::junit_flavour_from_environment()),
                      k_reserved_junit_bytes));
}

void JunitGuard::deliver() const {
  if (!m_private) {
    return;
  }
  std::error_code ec;
  if (std::filesystem::file_size(*m_private, ec) == 0 || ec) {
    report::write_junit(*m_file, early_end_report(m_command, "no report",
                                                  "kseries " + m_command +
                                                      " ended without writing its JUnit report",
                                                  report::CaseStatus::k_error));
    return;
  }
  replace_file(*m_file, read_file(*m_private));
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
  const auto flavour = report::junit_flavour_from_environment();
  try {
    report::write_junit(*m_file, early_end_report(m_command, end, message, status));
    return;
  } catch (const std::exception& e) {
    if (*m_file == "-" || m_stream) {
      std::cerr << "kseries " << m_command << ": cannot write the JUnit report: " << e.what()
                << "\n";
      return;
    }
    // A full disk: no new file can be made, but the placeholder's bytes
    // are there to write over. The message is cut to fit them.
    std::string text = message;
    std::string document;
    do {
      document = report::render_junit(early_end_report(m_command, end, text, status), flavour);
      text = text.substr(0, text.size() / 2);
    } while (document.size() > k_reserved_junit_bytes && !text.empty());
    try {
      overwrite_file(*m_file, document);
    } catch (const std::exception& again) {
      std::cerr << "kseries " << m_command << ": cannot write the JUnit report: " << e.what()
                << " (in place: " << again.what() << ")\n";
    }
  }
}

}  // namespace kseries::cli
