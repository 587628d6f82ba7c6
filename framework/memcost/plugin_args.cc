#include "memcost/plugin_args.h"

#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "sys/files.h"

namespace kseries::memcost {

namespace fs = std::filesystem;

namespace {

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string plain_path(const fs::path& path) {
  const std::string text = path.string();
  if (text.find(',') != std::string::npos || text.find('=') != std::string::npos) {
    throw usage_error("the memory clock cannot pass '" + text +
                      "' to QEMU's -plugin option (a ',' or '=' in it): use another --workdir");
  }
  return text;
}

}  // namespace

fs::path plugin_path() {
  fs::path path;
  if (const char* env = std::getenv("KSERIES_MEMCOST_PLUGIN"); env && *env) {
    path = env;
  } else {
    path = KSERIES_MEMCOST_PLUGIN;
  }
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw infra_error("the memory clock's QEMU plugin is not at " + path.string() +
                      " (built with kseries: ci/build; or set KSERIES_MEMCOST_PLUGIN)");
  }
  return path;
}

std::string plugin_argument(const PluginRequest& request) {
  std::string lines;
  for (const auto addr : request.symbols.irq_entries) {
    lines += hex(addr) + "\n";
  }
  write_file(request.irq_entries, lines);
  std::string arg = "file=" + plain_path(request.plugin) + ",out=" + plain_path(request.records) +
                    ",entry=" + hex(request.symbols.entry) +
                    ",irq_entries=" + plain_path(request.irq_entries);
  if (request.symbols.switch_to) {
    arg += ",switch=" + hex(request.symbols.switch_to);
  }
  for (const auto& [label, profile] : request.models) {
    arg += "," + plugin_model(profile, label);
  }
  arg += ",stack=" + std::to_string(request.stack_size);
  arg += request.order ? ",order=on" : ",order=off";
  // The clock's profile says how its vendor's locked instructions treat
  // earlier non-temporal stores; the records' header carries it to the
  // nt-ordering oracle.
  if (!request.models.empty()) {
    arg += request.models.front().second.locked_orders_nt ? ",locked_nt=ordered"
                                                          : ",locked_nt=unordered";
  }
  // $KSERIES_MEMCOST_ARGS: more plugin arguments for an experiment (nt=off,
  // the control that models non-temporal stores as ordinary ones).
  if (const char* extra = std::getenv("KSERIES_MEMCOST_ARGS"); extra && *extra) {
    const std::string more = extra;
    if (more.find_first_of(" \n") != std::string::npos || more.size() > 256) {
      throw usage_error("KSERIES_MEMCOST_ARGS: plugin arguments, comma-separated, no spaces");
    }
    arg += "," + more;
  }
  return arg;
}

std::string cover_argument(const fs::path& plugin, const fs::path& file) {
  return "file=" + plain_path(plugin) + ",cover=" + plain_path(file);
}

}  // namespace kseries::memcost
