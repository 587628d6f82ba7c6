#include "kernel/kconfig.h"

#include <optional>
#include <utility>

#include "core/error.h"
#include "core/text.h"

namespace kseries::kernel {
namespace {

// Plain code, no std::regex: a .config line comes from the Kconfig of the
// tree under test (a patch may add a string of any length), and libstdc++'s
// regex recursed per character of "(.*)" and overflowed the stack.

bool symbol_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// The symbol of a "CONFIG_<SYMBOL>" at the start of `line`, its length in `end`.
std::string_view symbol_at(std::string_view line, std::size_t& end) {
  if (!starts_with(line, "CONFIG_")) {
    return {};
  }
  end = 7;
  while (end < line.size() && symbol_char(line[end])) {
    ++end;
  }
  return line.substr(7, end - 7);
}

// "CONFIG_<SYMBOL>=<value>" (no line break in the value): symbol and value.
std::optional<std::pair<std::string, std::string>> assignment(std::string_view line) {
  std::size_t end = 0;
  const auto symbol = symbol_at(line, end);
  if (symbol.empty() || end >= line.size() || line[end] != '=') {
    return std::nullopt;
  }
  const auto value = line.substr(end + 1);
  if (value.find_first_of("\r\n") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::make_pair(std::string(symbol), std::string(value));
}

// "# CONFIG_<SYMBOL> is not set", white space after it allowed when
// `trailing_space` says so: the symbol.
std::optional<std::string> unset(std::string_view line, bool trailing_space) {
  if (!starts_with(line, "# ")) {
    return std::nullopt;
  }
  std::size_t end = 0;
  const auto symbol = symbol_at(line.substr(2), end);
  std::string_view rest = line.substr(2 + end);
  if (symbol.empty() || !starts_with(rest, " is not set")) {
    return std::nullopt;
  }
  rest.remove_prefix(11);
  if (trailing_space ? !trim(rest).empty() : !rest.empty()) {
    return std::nullopt;
  }
  return std::string(symbol);
}

}  // namespace

std::vector<ConfigRequest> parse_fragment(const std::string& text,
                                          const std::filesystem::path& file) {
  std::vector<ConfigRequest> requests;
  int line_no = 0;
  for (const auto raw : split_lines(text)) {
    ++line_no;
    const std::string line(trim(raw));
    if (const auto symbol = unset(line, true)) {
      requests.push_back({*symbol, "n", file, line_no});
    } else if (const auto set = assignment(line)) {
      const std::string value(trim(set->second));
      if (value.empty()) {
        throw usage_error(file.string() + ":" + std::to_string(line_no) + ": CONFIG_" + set->first +
                          " has no value");
      }
      requests.push_back({set->first, value, file, line_no});
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
  DotConfig config;
  for (const auto line : split_lines(text)) {
    if (const auto set = assignment(line)) {
      config[set->first] = set->second;
    } else if (const auto symbol = unset(line, false)) {
      config[*symbol] = "n";
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
