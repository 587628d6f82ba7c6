#include "report/junit.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <pugixml.hpp>
#include <sstream>

#include "core/utf8.h"
#include "report/output.h"
#include "sys/utc_time.h"

namespace kseries::report {

namespace {

std::string seconds_text(double seconds) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(3);
  out << seconds;
  return out.str();
}

void set_attribute(pugi::xml_node node, const char* name, std::string_view value) {
  node.append_attribute(name) = xml_safe(value).c_str();
}

void set_text(pugi::xml_node node, std::string_view text) {
  node.text().set(xml_safe(text).c_str());
}

void add_properties(pugi::xml_node parent,
                    const std::vector<std::pair<std::string, std::string>>& properties) {
  if (properties.empty()) {
    return;
  }
  auto node = parent.append_child("properties");
  for (const auto& [name, value] : properties) {
    auto property = node.append_child("property");
    set_attribute(property, "name", name);
    set_attribute(property, "value", value);
  }
}

// GitLab shows a <failure>'s text, never its message attribute: the message
// is the text's first line, the log excerpt follows.
void add_outcome(pugi::xml_node node, const char* element, const TestCase& test) {
  auto child = node.append_child(element);
  set_attribute(child, "message", test.message);
  std::string text = test.message;
  if (!test.detail.empty()) {
    text += (text.empty() ? "" : "\n") + test.detail;
  }
  if (!text.empty()) {
    set_text(child, text);
  }
}

// junit-10.xsd has no <properties> in <testcase>; its <system-out> is
// allowed, so the properties open it as "name=value" lines.
void add_system_out(pugi::xml_node node, const TestCase& test) {
  std::string text;
  if (!test.file.empty()) {
    text += "file=" + test.file + (test.line > 0 ? ":" + std::to_string(test.line) : "") + "\n";
  }
  for (const auto& [name, value] : test.properties) {
    text += name + "=" + value + "\n";
  }
  text += test.system_out;
  if (!text.empty()) {
    set_text(node.append_child("system-out"), text);
  }
}

}  // namespace

std::string xml_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const Utf8Char c = next_utf8_char(text.substr(i));
    // XML 1.0 has no C0 control but tab, newline and CR (not even as &#N;),
    // and no U+FFFE or U+FFFF.
    const bool control = c.code < 0x20 && c.code != '\t' && c.code != '\n' && c.code != '\r';
    if (c.length == 0 || control || c.code == 0xFFFE || c.code == 0xFFFF) {
      out += k_replacement_char;
      i += std::max<size_t>(c.length, 1);
    } else {
      out += text.substr(i, c.length);
      i += c.length;
    }
  }
  return out;
}

std::string utc_timestamp() { return utc_time_now("%Y-%m-%dT%H:%M:%S"); }

std::string tally_cases(const TestSuite& suite) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& test : suite.cases) {
    ++counts[static_cast<int>(test.status)];
  }
  const std::size_t passed = counts[static_cast<int>(CaseStatus::k_passed)];
  if (passed == suite.cases.size()) {
    return std::to_string(passed) + " testcase(s) pass";
  }
  const std::pair<CaseStatus, const char*> names[] = {{CaseStatus::k_passed, "pass"},
                                                      {CaseStatus::k_failed, "failed"},
                                                      {CaseStatus::k_error, "in error"},
                                                      {CaseStatus::k_skipped, "skipped"}};
  std::string text;
  for (const auto& [status, name] : names) {
    if (const std::size_t n = counts[static_cast<int>(status)]; n > 0) {
      text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    }
  }
  return text;
}

bool only_boots_ran(const TestSuite& suite) {
  bool skipped = false;
  for (const auto& test : suite.cases) {
    if (test.classname.rfind("boot.", 0) == 0) {
      continue;
    }
    if (test.status != CaseStatus::k_skipped) {
      return false;
    }
    skipped = true;
  }
  return skipped;
}

JunitFlavour junit_flavour(const char* kseries_junit_flavour, const char* gitlab_ci) {
  const std::string_view asked = kseries_junit_flavour ? kseries_junit_flavour : "";
  if (asked == "junit-10") {
    return JunitFlavour::k_junit10;
  }
  if (asked == "gitlab" || (gitlab_ci != nullptr && *gitlab_ci != '\0')) {
    return JunitFlavour::k_gitlab;
  }
  return JunitFlavour::k_junit10;
}

JunitFlavour junit_flavour_from_environment() {
  return junit_flavour(std::getenv("KSERIES_JUNIT_FLAVOUR"), std::getenv("GITLAB_CI"));
}

std::string path_for_report(const std::filesystem::path& path) {
  std::error_code error;
  const auto current = std::filesystem::current_path(error);
  if (error || !path.is_absolute()) {
    return path.lexically_normal().string();
  }
  const auto relative = path.lexically_normal().lexically_relative(current);
  if (relative.empty() || *relative.begin() == "..") {
    return path.string();
  }
  return relative.string();
}

std::string render_junit(const std::vector<TestSuite>& suites, JunitFlavour flavour) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto root = doc.append_child("testsuites");
  size_t all_tests = 0, all_failures = 0, all_errors = 0;
  double all_time = 0;
  for (const auto& suite : suites) {
    size_t failures = 0, errors = 0, skipped = 0;
    double time = 0;
    auto suite_node = root.append_child("testsuite");
    set_attribute(suite_node, "name", suite.name);
    add_properties(suite_node, suite.properties);
    for (const auto& test : suite.cases) {
      auto node = suite_node.append_child("testcase");
      set_attribute(node, "classname", test.classname);
      set_attribute(node, "name", test.name);
      set_attribute(node, "time", seconds_text(test.seconds));
      if (flavour == JunitFlavour::k_gitlab && !test.file.empty()) {
        set_attribute(node, "file", test.file);  // GitLab's link; not in junit-10.xsd
      }
      time += test.seconds;
      switch (test.status) {
        case CaseStatus::k_passed:
          break;
        case CaseStatus::k_failed:
          add_outcome(node, "failure", test);
          ++failures;
          break;
        case CaseStatus::k_error:
          add_outcome(node, "error", test);
          ++errors;
          break;
        case CaseStatus::k_skipped:
          add_outcome(node, "skipped", test);
          ++skipped;
          break;
      }
      add_system_out(node, test);
    }
    suite_node.append_attribute("tests") = static_cast<unsigned long long>(suite.cases.size());
    suite_node.append_attribute("failures") = static_cast<unsigned long long>(failures);
    suite_node.append_attribute("errors") = static_cast<unsigned long long>(errors);
    // junit-10.xsd allows "skipped" on <testsuite>, not on <testsuites>.
    suite_node.append_attribute("skipped") = static_cast<unsigned long long>(skipped);
    set_attribute(suite_node, "time", seconds_text(time));
    if (!suite.timestamp.empty()) {
      set_attribute(suite_node, "timestamp", suite.timestamp);
    }
    all_tests += suite.cases.size();
    all_failures += failures;
    all_errors += errors;
    all_time += time;
  }
  root.append_attribute("tests") = static_cast<unsigned long long>(all_tests);
  root.append_attribute("failures") = static_cast<unsigned long long>(all_failures);
  root.append_attribute("errors") = static_cast<unsigned long long>(all_errors);
  set_attribute(root, "time", seconds_text(all_time));
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

void write_junit(const std::filesystem::path& file, const std::vector<TestSuite>& suites,
                 std::ostream& standard_output) {
  write_report(file, render_junit(suites, junit_flavour_from_environment()), standard_output);
}

}  // namespace kseries::report
