#include "kernel/target.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

bool Target::has_feature(const std::string& feature) const {
  return std::find(features.begin(), features.end(), feature) != features.end();
}

std::string Target::limitation(const std::string& what) const {
  for (const auto& item : cannot) {
    if (item.what == what) {
      return item.reason;
    }
  }
  return "";
}

std::vector<std::string> Target::compiler_make_args() const {
  std::vector<std::string> args;
  if (arch != "x86_64") {
    args.push_back("ARCH=" + arch);
  }
  if (!cross_compile.empty()) {
    args.push_back("CROSS_COMPILE=" + cross_compile);
  }
  if (starts_with(compiler, "clang-")) {
    args.push_back("LLVM=-" + compiler.substr(6));
  } else if (compiler == "clang") {
    args.push_back("LLVM=1");
  }
  return args;
}

std::string Target::compiler_program() const {
  return compiler == "gcc" ? cross_compile + compiler : compiler;
}

fs::path Target::image_path() const {
  return arch == "arm64" ? fs::path("arch/arm64/boot/Image") : fs::path("arch/x86/boot/bzImage");
}

std::vector<std::string> list_targets(const fs::path& configs_dir) {
  std::vector<std::string> names;
  const fs::path dir = configs_dir / "targets";
  if (fs::is_directory(dir)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".target") {
        names.push_back(entry.path().stem().string());
      }
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// The keys of sizes and boots (struct-page, pmem-size, memory, cpus,
// boot-timeout) into TARGET; false for any other key.
bool set_size_or_boot_key(Target& target, const std::string& key, const std::string& value,
                          const std::string& where) {
  if (key == "struct-page") {
    // x86-64 6.12 has 64, 80 and 96; anything else that is a whole number
    // of 8-byte words in a plausible range is taken as asked.
    const bool digits = !value.empty() && value.size() <= 4 &&
                        value.find_first_not_of("0123456789") == std::string::npos;
    const std::uint64_t bytes = digits ? std::stoull(value) : 0;
    if (bytes < 32 || bytes > 512 || bytes % 8 != 0) {
      throw usage_error(where + ": struct-page is sizeof(struct page) in bytes, a multiple of 8 " +
                        "from 32 to 512 (64, 80, 96), not '" + value + "'");
    }
    target.struct_page = bytes;
  } else if (key == "pmem-size") {
    // "256M", "2G": a whole number of 128 MiB memory sections (memmap=
    // SIZE!OFFSET and the nvdimm both map whole sections), at most 64 GiB.
    std::uint64_t bytes = 0;
    const std::size_t digits = value.find_first_not_of("0123456789");
    if (digits > 0 && digits != std::string::npos && digits <= 5 && digits + 1 == value.size() &&
        (value.back() == 'M' || value.back() == 'G')) {
      bytes = std::stoull(value.substr(0, digits)) << (value.back() == 'G' ? 30 : 20);
    }
    if (bytes == 0 || bytes % (128ULL << 20) != 0 || bytes > (64ULL << 30)) {
      throw usage_error(where + ": pmem-size is a multiple of 128M up to 64G (256M, 2G), not '" +
                        value + "'");
    }
    target.pmem_size = value;
  } else if (key == "memory") {
    // x86-64 legacy pmem is memmap=SIZE!4G, so the guest needs RAM above
    // 4 GiB: QEMU's pc machine keeps 3 GiB below 4 GiB once it has 3.5.
    const std::uint64_t mib = size_in_mib(value).value_or(0);
    if (mib < 512 || mib > (std::uint64_t{16} << 20)) {
      throw usage_error(where + ": memory is the guest's RAM, a size such as 4608M or 8G (from " +
                        "512M to 16384G), not '" + value + "'");
    }
    target.memory = value;
  } else if (key == "cpus" || key == "boot-timeout") {
    const bool digits = !value.empty() && value.size() <= 6 &&
                        value.find_first_not_of("0123456789") == std::string::npos;
    const long number = digits ? std::stol(value) : 0;
    if (key == "cpus") {
      if (number < 1 || number > 64) {
        throw usage_error(where + ": cpus is a vCPU count from 1 to 64, not '" + value + "'");
      }
      target.cpus = static_cast<int>(number);
    } else {
      if (number < 60 || number > 86400) {
        throw usage_error(where + ": boot-timeout is seconds per boot, from 60 to 86400, not '" +
                          value + "'");
      }
      target.boot_timeout = std::chrono::seconds(number);
    }
  } else {
    return false;
  }
  return true;
}

// The words of a list VALUE ("fragments: a b"), each once.
std::vector<std::string> distinct_words(const std::string& value, const std::string& what,
                                        const std::string& where) {
  auto words = split_words(value);
  std::set<std::string> seen;
  for (const auto& word : words) {
    if (!seen.insert(word).second) {
      throw usage_error(where + ": " + what + " '" + word + "' listed twice");
    }
  }
  return words;
}

// A target file is a dozen lines, a fragment at most a whole .config: a
// larger file is neither.
constexpr std::size_t k_max_target_bytes = std::size_t{1} << 20;
constexpr std::size_t k_max_fragment_bytes = std::size_t{16} << 20;

}  // namespace

Target load_target(const fs::path& configs_dir, const std::string& name) {
  Target target;
  target.name = name;
  target.file = configs_dir / "targets" / (name + ".target");
  if (name.find('/') != std::string::npos || !fs::is_regular_file(target.file)) {
    std::string known;
    for (const auto& other : list_targets(configs_dir)) {
      known += (known.empty() ? "" : ", ") + other;
    }
    throw usage_error("unknown target '" + name + "' (no " + target.file.string() +
                      "); known targets: " + (known.empty() ? "none" : known));
  }
  // A key once (the second would silently win over the first), except
  // `cannot:`, one line per setup or case it names, each named once.
  std::map<std::string, int> seen;
  for (const auto& [line_no, key, value] :
       parse_key_values(read_file(target.file, k_max_target_bytes), target.file.string())) {
    const std::string where = target.file.string() + ":" + std::to_string(line_no);
    if (key != "cannot") {
      if (const auto [first, fresh] = seen.emplace(key, line_no); !fresh) {
        throw usage_error(where + ": '" + key + ":' again (first at line " +
                          std::to_string(first->second) + "): give each key once");
      }
    }
    if (key == "base") {
      target.base = value;
    } else if (key == "fragments") {
      for (const auto& word : distinct_words(value, "fragment", where)) {
        const fs::path fragment = configs_dir / "fragments" / (word + ".config");
        if (!fs::is_regular_file(fragment)) {
          throw usage_error(where + ": fragment '" + word + "' not found (" + fragment.string() +
                            ")");
        }
        target.fragments.push_back(fragment);
      }
    } else if (key == "compiler") {
      if (value != "gcc" && value != "clang" && !starts_with(value, "clang-")) {
        throw usage_error(where + ": compiler must be gcc, clang or clang-N, not '" + value + "'");
      }
      target.compiler = value;
    } else if (key == "purpose") {
      target.purpose = value;
    } else if (key == "features") {
      target.features = distinct_words(value, "feature", where);
    } else if (key == "cannot") {
      const auto separator = value.find(':');
      if (separator == std::string::npos) {
        throw usage_error(where + ": expected 'cannot: <setup or case>: <reason>'");
      }
      const std::string what(trim(std::string_view(value).substr(0, separator)));
      if (std::any_of(target.cannot.begin(), target.cannot.end(),
                      [&](const Limitation& item) { return item.what == what; })) {
        throw usage_error(where + ": 'cannot: " + what + "' again: give each setup or case once");
      }
      target.cannot.push_back(
          {what, std::string(trim(std::string_view(value).substr(separator + 1)))});
    } else if (key == "cmdline") {
      target.cmdline = value;
    } else if (key == "arch") {
      if (value != "x86_64" && value != "arm64") {
        throw usage_error(where + ": arch must be x86_64 or arm64, not '" + value + "'");
      }
      target.arch = value;
    } else if (key == "cross-compile") {
      if (value.empty() || value.back() != '-' ||
          value.find_first_of(" /\t") != std::string::npos) {
        throw usage_error(where + ": cross-compile is a toolchain prefix ending in '-' (" +
                          "aarch64-linux-gnu-), not '" + value + "'");
      }
      target.cross_compile = value;
    } else if (key == "busybox") {
      target.busybox = value;
    } else if (key == "tree-patch") {
      for (const auto& name : distinct_words(value, "tree patch", where)) {
        const fs::path patch = configs_dir / "tree-patches" / (name + ".patch");
        if (name.find('/') != std::string::npos || !fs::is_regular_file(patch)) {
          throw usage_error(where + ": tree patch '" + name + "' not found (" + patch.string() +
                            ")");
        }
        target.tree_patches.push_back(patch);
      }
    } else if (set_size_or_boot_key(target, key, value, where)) {
      // struct-page, pmem-size, memory, cpus, boot-timeout
    } else {
      throw usage_error(where + ": unknown key '" + key +
                        "' (base, fragments, compiler, purpose, features, cannot, cmdline, arch, "
                        "cross-compile, busybox, struct-page, tree-patch, pmem-size, memory, cpus, "
                        "boot-timeout)");
    }
  }
  if (target.arch != "x86_64" && target.cross_compile.empty() &&
      !starts_with(target.compiler, "clang")) {
    throw usage_error(target.file.string() + ": arch " + target.arch +
                      " on this x86_64 host needs a 'cross-compile:' toolchain prefix");
  }
  if (target.fragments.empty()) {
    throw usage_error(target.file.string() + ": no 'fragments:' line");
  }
  return target;
}

std::vector<ConfigRequest> target_requests(const Target& target) {
  std::vector<std::vector<ConfigRequest>> fragments;
  for (const auto& fragment : target.fragments) {
    fragments.push_back(parse_fragment(read_file(fragment, k_max_fragment_bytes), fragment));
  }
  return merge_requests(fragments);
}

}  // namespace kseries::kernel
