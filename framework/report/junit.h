#pragma once
// JUnit XML, the shape CI systems (Jenkins, GitLab, GitHub reporters) read:
// <testsuites> of <testsuite> of <testcase>, with <failure>/<error>/<skipped>
// carrying a message and a log excerpt, and <properties> for evidence. The
// output validates against tests/schemas/junit.xsd (what Jenkins xUnit's
// junit-10 schema, GitLab and junitparser enforce; tests/junit_schema.sh).

#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kseries::report {

enum class CaseStatus { k_passed, k_failed, k_error, k_skipped };

struct TestCase {
  std::string classname;  // "apply.zone-device-memmap/v6"
  std::string name;       // "01 mm: fix stale ZONE_DEVICE refcount comment"
  double seconds = 0;
  CaseStatus status = CaseStatus::k_passed;
  std::string message;  // one line: why it failed or was skipped
  std::string detail;   // the log excerpt (element text)
  // Written as "name=value" lines at the top of <system-out>: the schema has
  // no <properties> inside <testcase>.
  std::vector<std::pair<std::string, std::string>> properties;
  std::string system_out;
};

struct TestSuite {
  std::string name;
  std::string timestamp;  // ISO 8601, UTC
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<TestCase> cases;
};

// Renders the document; counts (tests, failures, errors, skipped, time) are
// computed from the cases, never given. Every string goes through xml_safe.
std::string render_junit(const std::vector<TestSuite>& suites);

// Writes the rendered document as report::write_report does ("-" is
// `standard_output`); throws Error(k_infrastructure) naming the file.
void write_junit(const std::filesystem::path& file, const std::vector<TestSuite>& suites,
                 std::ostream& standard_output = std::cout);

// `text` as XML 1.0 can carry it: C0 controls other than tab, newline and CR
// (not allowed even as &#N;) and bytes that are not valid UTF-8 become U+FFFD.
std::string xml_safe(std::string_view text);

// The current UTC time as "2026-11-30T01:02:03".
std::string utc_timestamp();

}  // namespace kseries::report
