#include "kernel/build_log.h"

#include <regex>

#include "core/text.h"

namespace kseries::kernel {

namespace {

std::string strip_prefixes(std::string path, const std::vector<std::string>& prefixes) {
  for (const auto& prefix : prefixes) {
    if (!prefix.empty() && starts_with(path, prefix)) {
      return path.substr(prefix.size());
    }
  }
  while (starts_with(path, "./")) {
    path = path.substr(2);
  }
  return path;
}

}  // namespace

std::string compiled_source(std::string_view line) {
  static const std::regex k_quiet(R"(^  (CC|AS)( \[M\])? +(\S+)\.o$)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(line.begin(), line.end(), m, k_quiet)) {
    return "";
  }
  return m[3].str() + (m[1].str() == "AS" ? ".S" : ".c");
}

BuildLog parse_build_log(std::string_view log, const std::vector<std::string>& source_prefixes) {
  static const std::regex k_diagnostic(
      R"(^(\S+?):(\d+):(?:(\d+):)? (fatal error|error|warning): (.*)$)");
  static const std::regex k_in_function(R"(^(?:\S*ld(?:\.\S+)?): (\S+\.o): in function .*$)");
  static const std::regex k_make(R"(^make(\[\d+\])?: \*\*\* (.*)$)");
  BuildLog result;
  std::string last_object;
  for (const auto raw : split_lines(log)) {
    const std::string line(raw);
    std::smatch m;
    if (const std::string source = compiled_source(raw); !source.empty()) {
      result.compiled.push_back(source);
      continue;
    }
    if (line.find("No space left on device") != std::string::npos) {
      result.disk_full = true;
    }
    if (std::regex_match(line, m, k_diagnostic)) {
      Diagnostic diagnostic;
      diagnostic.severity = m[4].str() == "warning" ? Severity::k_warning : Severity::k_error;
      diagnostic.file = strip_prefixes(m[1].str(), source_prefixes);
      diagnostic.line = std::stoi(m[2].str());
      diagnostic.column = m[3].matched ? std::stoi(m[3].str()) : 0;
      diagnostic.message = m[5].str();
      diagnostic.text = line;
      (diagnostic.severity == Severity::k_warning ? result.warnings : result.errors)
          .push_back(std::move(diagnostic));
    } else if (std::regex_match(line, m, k_in_function)) {
      last_object = m[1].str();
    } else if (line.find("undefined reference to") != std::string::npos) {
      Diagnostic diagnostic;
      std::string object = strip_prefixes(last_object, source_prefixes);
      if (object.size() > 2 && object.ends_with(".o")) {
        object = object.substr(0, object.size() - 2) + ".c";
      }
      diagnostic.file = object;
      diagnostic.message = std::string(trim(line.substr(line.find("undefined reference to"))));
      diagnostic.text = line;
      result.errors.push_back(std::move(diagnostic));
    } else if (std::regex_match(line, m, k_make)) {
      result.make_failures.push_back(line);
    }
  }
  return result;
}

}  // namespace kseries::kernel
