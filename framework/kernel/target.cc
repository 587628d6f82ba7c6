#include "kernel/target.h"

#include <algorithm>
#include <sstream>

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
  if (starts_with(compiler, "clang-")) {
    return {"LLVM=-" + compiler.substr(6)};
  }
  if (compiler == "clang") {
    return {"LLVM=1"};
  }
  return {};
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
  for (const auto& [line_no, key, value] :
       parse_key_values(read_file(target.file), target.file.string())) {
    const std::string where = target.file.string() + ":" + std::to_string(line_no);
    if (key == "base") {
      target.base = value;
    } else if (key == "fragments") {
      std::istringstream words(value);
      for (std::string word; words >> word;) {
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
      std::istringstream words(value);
      for (std::string word; words >> word;) {
        target.features.push_back(word);
      }
    } else if (key == "cannot") {
      const auto separator = value.find(':');
      if (separator == std::string::npos) {
        throw usage_error(where + ": expected 'cannot: <setup or case>: <reason>'");
      }
      target.cannot.push_back({std::string(trim(std::string_view(value).substr(0, separator))),
                               std::string(trim(std::string_view(value).substr(separator + 1)))});
    } else if (key == "cmdline") {
      target.cmdline = value;
    } else {
      throw usage_error(where + ": unknown key '" + key +
                        "' (base, fragments, compiler, purpose, features, cannot, cmdline)");
    }
  }
  if (target.fragments.empty()) {
    throw usage_error(target.file.string() + ": no 'fragments:' line");
  }
  return target;
}

std::vector<ConfigRequest> target_requests(const Target& target) {
  std::vector<std::vector<ConfigRequest>> fragments;
  for (const auto& fragment : target.fragments) {
    fragments.push_back(parse_fragment(read_file(fragment), fragment));
  }
  return merge_requests(fragments);
}

}  // namespace kseries::kernel
