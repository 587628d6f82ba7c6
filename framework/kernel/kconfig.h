#pragma once
// Kconfig data as kseries reads it: fragment files (what a target asks for),
// resolved .config files (what olddefconfig made of it), and the check that
// every requested symbol kept its requested value.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kseries::kernel {

// One "CONFIG_X=value" (or "# CONFIG_X is not set", value "n") line.
struct ConfigRequest {
  std::string symbol;  // without the CONFIG_ prefix
  std::string value;   // "y", "m", "n", a number or a quoted string
  std::filesystem::path file;
  int line = 0;
  std::string where() const { return file.string() + ":" + std::to_string(line); }
};

// Parses a fragment; throws Error(k_usage) naming file:line on a line that is
// neither a comment, blank, nor a CONFIG_ assignment.
std::vector<ConfigRequest> parse_fragment(const std::string& text,
                                          const std::filesystem::path& file);

// Later requests for the same symbol win (merge_config.sh semantics); the
// result keeps the winning request's file and line.
std::vector<ConfigRequest> merge_requests(const std::vector<std::vector<ConfigRequest>>& fragments);

// A resolved .config: symbol -> value; "# CONFIG_X is not set" reads as "n".
using DotConfig = std::map<std::string, std::string>;
DotConfig parse_dot_config(const std::string& text);
// The value of `symbol` ("n" when absent).
std::string config_value(const DotConfig& config, const std::string& symbol);

struct Dropped {
  ConfigRequest request;
  std::string actual;  // what .config has
};

// The requests whose value did not survive.
std::vector<Dropped> find_dropped(const std::vector<ConfigRequest>& requests,
                                  const DotConfig& config);

}  // namespace kseries::kernel
