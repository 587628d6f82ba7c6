#include "cli/context.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "core/utf8.h"
#include "git/tree_import.h"

namespace kseries::cli {

namespace {
const auto k_started = std::chrono::steady_clock::now();
}

void Context::finish_runs() {
  if (m_workdir) {
    m_workdir->point_latest();
  }
}

std::filesystem::path Context::workdir_root() const {
  return std::filesystem::absolute(m_root.value_or(WorkDir::default_root())).lexically_normal();
}

WorkDir& Context::workdir() {
  if (!m_workdir) {
    // Absolute once, here: later stages hand it to make and to other
    // directories, where a relative path would mean something else.
    m_workdir = std::make_unique<WorkDir>(workdir_root());
  }
  return *m_workdir;
}

git::Store& Context::store() {
  if (!m_store) {
    m_store = std::make_unique<git::Store>(workdir().repo());
  }
  return *m_store;
}

po::options_description common_options() {
  po::options_description options("Common options");
  options.add_options()("help,h", "show this help and exit")(
      "workdir", po::value<std::string>(),
      "work directory for trees, builds and runs (default $XDG_CACHE_HOME/kseries, "
      "else ~/.cache/kseries)");
  return options;
}

namespace {

// The range of every numeric option, whichever command has it: program
// options reads "-1" into a std::size_t as 18446744073709551615 and takes
// -j 0, --rebinds 0 and --timeout -5 as given.
struct OptionRange {
  const char* name;
  double low;
  double high;
};
constexpr OptionRange k_option_ranges[] = {
    {"upto", 1, 100000},        {"max-patch-bytes", 1, 1 << 30},
    {"jobs", 1, 4096},          {"rebinds", 1, 100000},
    {"boots", 1, 1000},         {"timeout", 1, 7 * 86400},
    {"runs", 1, 1000},          {"timing-runs", 1, 1000},
    {"shards", 1, 10000},       {"threshold", 0, 1000},
    {"confidence", 0.5, 0.999},
};

std::optional<double> numeric_value(const po::variable_value& value) {
  const auto& type = value.value().type();
  if (type == typeid(std::size_t)) {
    return static_cast<double>(value.as<std::size_t>());
  }
  if (type == typeid(int)) {
    return value.as<int>();
  }
  if (type == typeid(double)) {
    return value.as<double>();
  }
  return std::nullopt;
}

}  // namespace

void check_option_values(const std::string& command, const po::variables_map& vm,
                         const std::map<std::string, std::string>& typed) {
  const auto refuse = [&](const std::string& name, const std::string& why) {
    const auto it = typed.find(name);
    const std::string value = it != typed.end() ? it->second : "";
    throw usage_error("kseries " + command + ": --" + name + " " + value + ": " + why);
  };
  for (const auto& range : k_option_ranges) {
    if (!vm.count(range.name) || vm[range.name].defaulted()) {
      continue;
    }
    const auto value = numeric_value(vm[range.name]);
    const auto it = typed.find(range.name);
    const bool negative = it != typed.end() && trim(it->second).rfind('-', 0) == 0;
    if (value &&
        (negative || !std::isfinite(*value) || *value < range.low || *value > range.high)) {
      std::ostringstream bounds;
      bounds << "out of range (from " << range.low << " to " << range.high << ")";
      refuse(range.name, bounds.str());
    }
  }
  // Comma lists: no empty item (--setups , named no setup at all).
  for (const char* name : {"setups", "args"}) {
    if (!vm.count(name)) {
      continue;
    }
    const std::string list = vm[name].as<std::string>();
    std::size_t begin = 0;
    while (begin <= list.size()) {
      const std::size_t end = std::min(list.find(',', begin), list.size());
      const std::string item = list.substr(begin, end - begin);
      if (item.empty()) {
        refuse(name, "an empty item in the comma-separated list");
      }
      // --args reaches the kernel command line inside kseries.args=: a
      // space or a quote there would start a parameter of its own.
      if (item.find_first_of(" \t\n\r\"'\\") != std::string::npos) {
        refuse(name, "'" + item + "' holds a space, quote or backslash");
      }
      if (std::string(name) == "args" && item.find('=') == std::string::npos) {
        refuse(name, "'" + item + "' is not key=value");
      }
      begin = end + 1;
    }
  }
}

bool parse_command_line(const std::string& command, const std::string& synopsis,
                        const std::vector<std::string>& args, po::options_description& options,
                        po::variables_map& vm, Context& context,
                        const po::positional_options_description* positional) {
  options.add(common_options());
  try {
    auto parser = po::command_line_parser(args).options(options);
    if (positional) {
      parser.positional(*positional);
    }
    const auto parsed = parser.run();
    // Program_options drops words no positional description claims; a word
    // there is an option whose --name was forgotten ("--tree T base"). (Not
    // collect_unrecognized(include_positional): it also returns the words a
    // positional description did claim.)
    std::vector<std::string> stray;
    for (const auto& option : parsed.options) {
      if (option.unregistered || option.string_key.empty()) {
        stray.insert(stray.end(), option.original_tokens.begin(), option.original_tokens.end());
      }
    }
    if (!stray.empty()) {
      std::string words;
      for (const auto& word : stray) {
        words += (words.empty() ? "'" : ", '") + word + "'";
      }
      throw usage_error(
          "kseries " + command + ": unexpected argument" + (stray.size() > 1 ? "s " : " ") + words +
          " (every value follows its --option; see 'kseries " + command + " --help')");
    }
    po::store(parsed, vm);
    if (vm.count("help")) {
      std::cout << "usage: kseries " << command << " " << synopsis << "\n\n" << options << "\n";
      return false;
    }
    po::notify(vm);
    std::map<std::string, std::string> typed;  // as the user typed each value
    for (const auto& option : parsed.options) {
      if (!option.value.empty()) {
        typed[option.string_key] = option.value.back();
      }
    }
    check_option_values(command, vm, typed);
  } catch (const po::error& e) {
    throw usage_error("kseries " + command + ": " + e.what() + " (see 'kseries " + command +
                      " --help')");
  }
  if (vm.count("workdir")) {
    const std::string workdir = vm["workdir"].as<std::string>();
    if (workdir.empty()) {
      throw usage_error("kseries " + command + ": --workdir '' is an empty path");
    }
    context.set_workdir_root(workdir);
  }
  // kseries never writes to the user's --tree: a work directory inside it
  // would fill the user's work tree (and its git status) with kseries' own.
  if (vm.count("tree") && !vm["tree"].as<std::string>().empty()) {
    const auto resolved = [](const std::filesystem::path& path) {
      std::error_code ec;
      auto out = std::filesystem::weakly_canonical(path, ec);
      return out.filename().empty() ? out.parent_path() : out;
    };
    const auto tree = resolved(vm["tree"].as<std::string>());
    const auto root = resolved(context.workdir_root());
    if (std::mismatch(tree.begin(), tree.end(), root.begin(), root.end()).first == tree.end()) {
      throw usage_error("kseries " + command + ": --workdir " + root.string() +
                        " is inside --tree " + tree.string() +
                        " (kseries never writes to your tree; choose a work directory outside it)");
    }
  }
  return true;
}

po::options_description base_options() {
  po::options_description options("Base tree");
  options.add_options()("tarball", po::value<std::string>()->default_value(k_default_tarball),
                        "kernel source tarball imported (once) as the base")(
      "tree", po::value<std::string>(),
      "use this existing git repository instead (read-only: its work tree and branches are "
      "never touched)")("base", po::value<std::string>(),
                        "revision of --tree to use as the base (default HEAD)");
  return options;
}

Base resolve_base(Context& context, const po::variables_map& vm) {
  Base base;
  if (vm.count("tree")) {
    const std::string tree = vm["tree"].as<std::string>();
    const std::string rev = vm.count("base") ? vm["base"].as<std::string>() : "HEAD";
    base.commit = context.store().borrow_commit(tree, rev);
    base.label = tree + " " + rev;
    return base;
  }
  if (vm.count("base")) {
    const std::string rev = vm["base"].as<std::string>();
    auto found = context.store().resolve(rev);
    if (!found) {
      throw usage_error("--base " + rev + ": no such revision in " +
                        context.store().path().string() + " (did you mean --tree DIR --base " +
                        rev + "?)");
    }
    base.commit = *found;
    base.label = rev;
    return base;
  }
  const auto imported =
      git::import_tarball(context.store(), vm["tarball"].as<std::string>(),
                          context.workdir().root() / "tmp" / "import", context.runner());
  base.commit = imported.commit;
  base.label = imported.branch;
  return base;
}

git::ApplyResult apply_series_or_fail(Context& context, const Base& base,
                                      const std::vector<std::unique_ptr<Series>>& chain,
                                      std::optional<std::size_t> upto) {
  git::ApplyRequest request;
  request.base = base.commit;
  request.base_label = base.label;
  for (const auto& series : chain) {
    request.chain.push_back(series.get());
  }
  request.upto = upto;
  auto applied = git::apply_chain(context.store(), request);
  if (!applied.complete || !applied.tip) {
    std::string detail;
    for (const auto& outcome : applied.outcomes) {
      if (outcome.status == git::PatchStatus::k_failed) {
        detail += "\n  " + outcome.label + " does not apply:\n" + outcome.failure;
      }
    }
    throw check_failure("the series " + chain.back()->name + " does not apply onto " + base.label +
                        detail);
  }
  return applied;
}

std::ostream& text_report_stream(const po::variables_map& vm) {
  for (const char* option : {"junit", "json"}) {
    if (vm.count(option) && vm[option].as<std::string>() == "-") {
      return std::cerr;
    }
  }
  return std::cout;
}

void progress(const std::string& text) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - k_started).count();
  std::cerr << "kseries [" << std::fixed << std::setprecision(1) << elapsed << "s] "
            << printable_text(text) << std::endl;
}

}  // namespace kseries::cli
