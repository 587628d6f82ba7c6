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

// Where the `file` of a testcase goes. Jenkins' xUnit plugin checks every
// file against its junit-10.xsd, whose <testcase> has no `file` in any
// release; GitLab reads `file` only from <testcase> (a link to
// the file in the repository). One document cannot please both, so, as
// pytest's junit_family does (xunit2 strict, xunit1 with file/line):
// k_junit10 keeps it in the properties ("file=..." in <system-out>),
// k_gitlab also writes the attribute.
enum class JunitFlavour { k_junit10, k_gitlab };

// KSERIES_JUNIT_FLAVOUR ("junit-10" or "gitlab"), else k_gitlab when
// GITLAB_CI is set (every GitLab job has it), else k_junit10. The values of
// the two variables (nullptr: unset).
JunitFlavour junit_flavour(const char* kseries_junit_flavour, const char* gitlab_ci);
// The same from this process's environment.
JunitFlavour junit_flavour_from_environment();

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
  // The file the case is about, when there is one: the patch of an apply,
  // checkpatch or per-patch build case (relative to the working directory
  // when under it, as GitLab links it into the repository), or the source
  // file of a compiler error (relative to the kernel tree) and its line.
  std::string file{};
  int line = 0;
};

struct TestSuite {
  std::string name;
  std::string timestamp;  // ISO 8601, UTC
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<TestCase> cases;
};

// "12 testcase(s) pass" when every case passed, else the counts that are
// not zero: "2 pass, 8 skipped" (a cell of skips does not read as passing).
std::string tally_cases(const TestSuite& suite);

// Whether the guest judged nothing: every case but the boots themselves
// (classname "boot.") skipped, and there is at least one.
bool only_boots_ran(const TestSuite& suite);

// Renders the document; counts (tests, failures, errors, skipped, time) are
// computed from the cases, never given. Every string goes through xml_safe.
std::string render_junit(const std::vector<TestSuite>& suites,
                         JunitFlavour flavour = JunitFlavour::k_junit10);

// Writes the rendered document (in junit_flavour_from_environment()) as
// report::write_report does ("-" is `standard_output`); throws
// Error(k_infrastructure) naming the file.
void write_junit(const std::filesystem::path& file, const std::vector<TestSuite>& suites,
                 std::ostream& standard_output = std::cout);

// `path` relative to the current directory when it lies below it, else as it is.
std::string path_for_report(const std::filesystem::path& path);

// `text` as XML 1.0 can carry it: C0 controls other than tab, newline and CR
// (not allowed even as &#N;) and bytes that are not valid UTF-8 become U+FFFD.
std::string xml_safe(std::string_view text);

// The current UTC time as "2026-11-30T01:02:03".
std::string utc_timestamp();

}  // namespace kseries::report
