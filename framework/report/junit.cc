#include "report/junit.h"

#include <ctime>
#include <pugixml.hpp>
#include <sstream>

#include "sys/files.h"

namespace kseries::report {

namespace {

std::string seconds_text(double seconds) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(3);
  out << seconds;
  return out.str();
}

void add_properties(pugi::xml_node parent,
                    const std::vector<std::pair<std::string, std::string>>& properties) {
  if (properties.empty()) {
    return;
  }
  auto node = parent.append_child("properties");
  for (const auto& [name, value] : properties) {
    auto property = node.append_child("property");
    property.append_attribute("name") = name.c_str();
    property.append_attribute("value") = value.c_str();
  }
}

// XML 1.0 cannot carry most control characters, even escaped: a kernel log
// excerpt may hold them, so they become U+FFFD.
std::string xml_safe(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\t' && c != '\r') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
  return buffer;
}

std::string render_junit(const std::vector<TestSuite>& suites) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto root = doc.append_child("testsuites");
  size_t all_tests = 0, all_failures = 0, all_errors = 0, all_skipped = 0;
  double all_time = 0;
  for (const auto& suite : suites) {
    size_t failures = 0, errors = 0, skipped = 0;
    double time = 0;
    auto suite_node = root.append_child("testsuite");
    suite_node.append_attribute("name") = suite.name.c_str();
    add_properties(suite_node, suite.properties);
    for (const auto& test : suite.cases) {
      auto node = suite_node.append_child("testcase");
      node.append_attribute("classname") = test.classname.c_str();
      node.append_attribute("name") = test.name.c_str();
      node.append_attribute("time") = seconds_text(test.seconds).c_str();
      time += test.seconds;
      add_properties(node, test.properties);
      const char* element = nullptr;
      switch (test.status) {
        case CaseStatus::k_passed:
          break;
        case CaseStatus::k_failed:
          element = "failure";
          ++failures;
          break;
        case CaseStatus::k_error:
          element = "error";
          ++errors;
          break;
        case CaseStatus::k_skipped:
          element = "skipped";
          ++skipped;
          break;
      }
      if (element) {
        auto child = node.append_child(element);
        child.append_attribute("message") = xml_safe(test.message).c_str();
        if (!test.detail.empty()) {
          child.text().set(xml_safe(test.detail).c_str());
        }
      }
      if (!test.system_out.empty()) {
        node.append_child("system-out").text().set(xml_safe(test.system_out).c_str());
      }
    }
    suite_node.append_attribute("tests") = static_cast<unsigned long long>(suite.cases.size());
    suite_node.append_attribute("failures") = static_cast<unsigned long long>(failures);
    suite_node.append_attribute("errors") = static_cast<unsigned long long>(errors);
    suite_node.append_attribute("skipped") = static_cast<unsigned long long>(skipped);
    suite_node.append_attribute("time") = seconds_text(time).c_str();
    if (!suite.timestamp.empty()) {
      suite_node.append_attribute("timestamp") = suite.timestamp.c_str();
    }
    all_tests += suite.cases.size();
    all_failures += failures;
    all_errors += errors;
    all_skipped += skipped;
    all_time += time;
  }
  root.append_attribute("tests") = static_cast<unsigned long long>(all_tests);
  root.append_attribute("failures") = static_cast<unsigned long long>(all_failures);
  root.append_attribute("errors") = static_cast<unsigned long long>(all_errors);
  root.append_attribute("skipped") = static_cast<unsigned long long>(all_skipped);
  root.append_attribute("time") = seconds_text(all_time).c_str();
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

void write_junit(const std::filesystem::path& file, const std::vector<TestSuite>& suites) {
  write_file(file, render_junit(suites));
}

}  // namespace kseries::report
