#include "cases/case_def.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::cases {

namespace fs = std::filesystem;

CaseDef load_case(const fs::path& testcases_dir, const std::string& name) {
  const fs::path conf = testcases_dir / name / "case.conf";
  std::error_code ec;  // a name too long for the file system is an unknown case
  if (name.empty() || name.find('/') != std::string::npos || !fs::is_regular_file(conf, ec) ||
      !fs::is_regular_file(testcases_dir / name / "guest.sh", ec)) {
    std::string known;
    if (fs::is_directory(testcases_dir)) {
      for (const auto& entry : fs::directory_iterator(testcases_dir)) {
        if (fs::is_regular_file(entry.path() / "case.conf")) {
          known += (known.empty() ? "" : ", ") + entry.path().filename().string();
        }
      }
    }
    throw usage_error(
        "unknown case '" + name + "' (no " + conf.string() +
        " with a guest.sh beside it); known cases: " + (known.empty() ? "none" : known));
  }
  return parse_case_conf(read_file(conf), conf, testcases_dir, name);
}

namespace {

// VALUE as a whole number of at most 12 digits, nothing else in it.
std::optional<std::uint64_t> whole_number(std::string_view value) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || value.size() > 12 || ec != std::errc() ||
      end != value.data() + value.size()) {
    return std::nullopt;
  }
  return n;
}

// Sets one case.conf key on `def`; throws Error(k_usage) naming `where` for
// a malformed value or an unknown key.
void apply_key(CaseDef& def, const std::string& key, const std::string& value,
               const std::string& where, const fs::path& testcases_dir) {
  if (key == "description") {
    def.description = value;
  } else if (key == "needs") {
    const auto words = split_words(value);
    def.needs.insert(def.needs.end(), words.begin(), words.end());
  } else if (key == "cmdline") {
    def.cmdline = value;
  } else if (key == "modules" || key == "oracle") {
    const std::vector<std::string> list = split_words(value);
    if (key == "modules") {
      for (const auto& module : list) {
        // A module is a directory beside the case: a plain name, no path.
        if (module.size() > 64 || module == "." || module == ".." ||
            module.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_.-") != std::string::npos) {
          throw usage_error(where + ": module '" + module.substr(0, 64) +
                            "' is not a directory name (letters, digits, '_', '.', '-'; "
                            "at most 64)");
        }
        std::error_code ec;
        if (!std::filesystem::is_regular_file(testcases_dir / module / "Kbuild", ec) &&
            !std::filesystem::is_regular_file(testcases_dir / module / "Makefile", ec)) {
          throw usage_error(where + ": module '" + module + "' has no " +
                            (testcases_dir / module / "Kbuild").string() +
                            " (a test module) or Makefile (a test payload)");
        }
      }
      def.modules = list;
    } else {
      // One name; which names exist is the oracle registry's
      // (session/oracle_registry.cc), checked where a case is planned.
      if (list.size() != 1 || list[0].size() > 64 ||
          list[0].find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
        throw usage_error(where +
                          ": oracle must be one name (lower-case letters, digits, '-'), not '" +
                          value.substr(0, 64) + "'");
      }
      def.oracle = list[0];
    }
  } else if (key == "path") {
    for (const auto& file : split_words(value)) {
      // Tree-relative source files, as a diff names them.
      if (file.empty() || file.front() == '/' || file.find("..") != std::string::npos ||
          file.size() > 256) {
        throw usage_error(where +
                          ": path must name FILE:FUNCTION or FILE relative to the kernel "
                          "tree (mm/mm_init.c:memmap_init_zone_device), not '" +
                          file.substr(0, 256) + "'");
      }
      def.path.push_back(file);
    }
  } else if (key == "setups") {
    const auto words = split_words(value);
    def.setups.insert(def.setups.end(), words.begin(), words.end());
  } else if (key == "tcg-cpu") {
    if (value.empty() || value.find(' ') != std::string::npos) {
      throw usage_error(where + ": tcg-cpu must be one QEMU -cpu model, not '" + value + "'");
    }
    def.tcg_cpu = value;
  } else if (key == "clock") {
    if (value != "wall" && value != "icount") {
      throw usage_error(where + ": clock must be wall or icount, not '" + value.substr(0, 64) +
                        "'");
    }
    def.clock = value;
  } else if (key == "memory") {
    // A size QEMU's -m takes: digits and a unit, M or G.
    // At most 16 TiB, QEMU's own ceiling for x86_64 guests.
    const std::uint64_t mib = size_in_mib(value).value_or(0);
    if (mib < 1 || mib > (std::uint64_t{16} << 20)) {
      throw usage_error(where +
                        ": memory must be a size such as 16G or 4096M (at most 16384G), not '" +
                        value + "'");
    }
    def.memory = value;
  } else if (key == "rebinds") {
    const auto n = whole_number(value);
    if (!n || *n < 1 || *n > 10000) {
      throw usage_error(where + ": rebinds must be a number from 1 to 10000, not '" +
                        value.substr(0, 64) + "'");
    }
    def.rebinds = static_cast<int>(*n);
  } else if (key == "timeout") {
    // std::stoi took "0", "-5" and "30s"; a boot needs at least a second.
    const auto seconds = whole_number(value);
    if (!seconds || *seconds < 1 || *seconds > 7 * 86400) {
      throw usage_error(where + ": timeout must be a number of seconds from 1 to 604800, not '" +
                        value + "'");
    }
    def.timeout = std::chrono::seconds(*seconds);
  } else {
    throw usage_error(
        where + ": unknown key '" + key +
        "' (description, needs, cmdline, timeout, modules, oracle, path, setups, "
        "tcg-cpu, clock, memory, rebinds; ARCH.cmdline, ARCH.memory for one architecture)");
  }
}

}  // namespace

CaseDef parse_case_conf(const std::string& text, const fs::path& conf,
                        const fs::path& testcases_dir, const std::string& name) {
  CaseDef def;
  def.name = name;
  def.dir = testcases_dir / name;
  for (const auto& [line_no, key, value] : parse_key_values(text, conf.string())) {
    const std::string where = conf.string() + ":" + std::to_string(line_no);
    const auto dot = key.find('.');
    if (dot == std::string::npos) {
      apply_key(def, key, value, where, testcases_dir);
      continue;
    }
    // arm64.memory: 72G: the value for targets of that architecture only.
    const std::string arch = key.substr(0, dot), what = key.substr(dot + 1);
    if ((arch != "x86_64" && arch != "arm64") || (what != "cmdline" && what != "memory")) {
      throw usage_error(where + ": '" + key +
                        "': only cmdline and memory take an architecture (x86_64.KEY, arm64.KEY)");
    }
    CaseDef checked;
    apply_key(checked, what, value, where, testcases_dir);
    def.arch_keys.push_back({arch, what, value});
  }
  return def;
}

CaseDef CaseDef::for_arch(const std::string& arch) const {
  CaseDef def = *this;
  for (const auto& key : arch_keys) {
    if (key.arch == arch) {
      apply_key(def, key.key, key.value, name, dir.parent_path());
    }
  }
  def.arch_keys.clear();
  return def;
}

}  // namespace kseries::cases
