#include "kernel/kconfig.h"

#include <regex>

#include "core/error.h"
#include "core/text.h"

namespace kseries::kernel {

std::vector<ConfigRequest> parse_fragment(const std::string& text,
                                          const std::filesystem::path& file) {
  static const std::regex k_set(R"(^CONFIG_([A-Za-z0-9_]+)=(.*)$)");
  static const std::regex k_unset(R"(^# CONFIG_([A-Za-z0-9_]+) is not set\s*$)");
  std::vector<ConfigRequest> requests;
  int line_no = 0;
  for (const auto raw : split_lines(text)) {
    ++line_no;
    const std::string line(trim(raw));
    std::smatch m;
    if (std::regex_match(line, m, k_unset)) {
      requests.push_back({m[1].str(), "n", file, line_no});
    } else if (std::regex_match(line, m, k_set)) {
      const std::string value(trim(m[2].str()));
      if (value.empty()) {
        throw usage_error(file.string() + ":" + std::to_string(line_no) + ": CONFIG_" + m[1].str() +
                          " has no value");
      }
      requests.push_back({m[1].str(), value, file, line_no});
    } else if (!line.empty() && line[0] != '#') {
      throw usage_error(file.string() + ":" + std::to_string(line_no) +
                        ": not a Kconfig fragment line (expected CONFIG_NAME=value or a "
                        "comment): '" +
                        line + "'");
    }
  }
  return requests;
}

std::vector<ConfigRequest> merge_requests(
    const std::vector<std::vector<ConfigRequest>>& fragments) {
  std::vector<ConfigRequest> merged;
  std::map<std::string, size_t> position;
  for (const auto& fragment : fragments) {
    for (const auto& request : fragment) {
      auto it = position.find(request.symbol);
      if (it == position.end()) {
        position[request.symbol] = merged.size();
        merged.push_back(request);
      } else {
        merged[it->second] = request;
      }
    }
  }
  return merged;
}

DotConfig parse_dot_config(const std::string& text) {
  static const std::regex k_set(R"(^CONFIG_([A-Za-z0-9_]+)=(.*)$)");
  static const std::regex k_unset(R"(^# CONFIG_([A-Za-z0-9_]+) is not set$)");
  DotConfig config;
  for (const auto raw : split_lines(text)) {
    const std::string line(raw);
    std::smatch m;
    if (std::regex_match(line, m, k_set)) {
      config[m[1].str()] = m[2].str();
    } else if (std::regex_match(line, m, k_unset)) {
      config[m[1].str()] = "n";
    }
  }
  return config;
}

std::string config_value(const DotConfig& config, const std::string& symbol) {
  auto it = config.find(symbol);
  return it == config.end() ? "n" : it->second;
}

std::vector<Dropped> find_dropped(const std::vector<ConfigRequest>& requests,
                                  const DotConfig& config) {
  std::vector<Dropped> dropped;
  for (const auto& request : requests) {
    const std::string actual = config_value(config, request.symbol);
    if (actual != request.value) {
      dropped.push_back({request, actual});
    }
  }
  return dropped;
}

}  // namespace kseries::kernel
