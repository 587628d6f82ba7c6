#include "session/case_plan.h"

#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "qemu/pmem_layout.h"

namespace kseries::session {

namespace {

const std::vector<std::string> k_memmap_setups = {"fsdax-mem", "fsdax-dev", "devdax-mem",
                                                  "devdax-dev"};

// "fsdax-dev" (or "fsdax-dev@share-first") -> "map=dev": the name targets
// use in their `cannot:` lines.
std::string setup_map(const std::string& setup) {
  const std::string plain = qemu::setup_without_layout(setup);
  const auto dash = plain.rfind('-');
  return dash == std::string::npos ? "" : "map=" + plain.substr(dash + 1);
}

// Why SETUP's layout cannot be made on TARGET ("" when it can). An unknown
// layout is a usage error before anything is built.
std::string layout_limitation(const kernel::Target& target, const std::string& setup) {
  const std::string layout = qemu::setup_layout(setup);
  const auto& names = qemu::pmem_layout_names();
  if (std::find(names.begin(), names.end(), layout) == names.end()) {
    throw usage_error("setup " + setup + ": unknown pmem layout '" + layout +
                      "' (aligned, share-first, share-last)");
  }
  if (layout != "aligned" && target.arch != "x86_64") {
    return "layout " + layout + " is a legacy memmap= region of x86-64 (on " + target.arch +
           " the pmem is carved from the top of RAM)";
  }
  return "";
}

std::optional<std::string> missing_feature(const kernel::Target& target,
                                           const cases::CaseDef& test_case) {
  for (const auto& need : test_case.needs) {
    if (!target.has_feature(need)) {
      std::string why = target.limitation(test_case.name);
      if (why.empty()) {
        why = target.limitation(need).empty() ? target.purpose : target.limitation(need);
      }
      return "target " + target.name + " lacks '" + need + "' (" + why + ")";
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> known_setups(const cases::CaseDef& test_case) {
  if (!test_case.setups.empty()) {
    return test_case.setups;
  }
  const bool pmem_case =
      std::find(test_case.needs.begin(), test_case.needs.end(), "pmem") != test_case.needs.end();
  return pmem_case ? k_memmap_setups : std::vector<std::string>{};
}

bool is_known_setup(const cases::CaseDef& test_case, const std::string& setup) {
  const auto known = known_setups(test_case);
  if (std::find(known.begin(), known.end(), setup) != known.end()) {
    return true;
  }
  const bool pmem_case =
      std::find(test_case.needs.begin(), test_case.needs.end(), "pmem") != test_case.needs.end();
  if (!pmem_case) {
    return false;
  }
  const auto& layouts = qemu::pmem_layout_names();
  if (std::find(layouts.begin(), layouts.end(), qemu::setup_layout(setup)) == layouts.end()) {
    return false;
  }
  const std::string plain = qemu::setup_without_layout(setup);
  for (const std::string type : {"fsdax", "devdax"}) {
    for (const std::string align : {"", "4k", "2m", "1g"}) {
      for (const std::string map : {"-mem", "-dev"}) {
        if (plain == type + align + map) {
          return true;
        }
      }
    }
  }
  return false;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::istringstream list(text);
  for (std::string item; std::getline(list, item, separator);) {
    if (!item.empty()) {
      items.push_back(item);
    }
  }
  return items;
}

CasePlan plan_case(const kernel::Target& target, const cases::CaseDef& case_def,
                   const CaseOptions& options) {
  const cases::CaseDef test_case = case_def.for_arch(target.arch);
  if (options.rebinds && !test_case.rebinds) {
    throw usage_error("case " + test_case.name + " takes no rebinds (its " +
                      (test_case.dir / "case.conf").string() + " has no 'rebinds:')");
  }
  CasePlan plan;
  plan.skipped = missing_feature(target, test_case);
  if (plan.skipped) {
    return plan;
  }
  std::vector<std::string> case_args;
  const bool pmem_case =
      std::find(test_case.needs.begin(), test_case.needs.end(), "pmem") != test_case.needs.end();
  if (pmem_case || !test_case.setups.empty()) {
    const auto setups = options.setups             ? *options.setups
                        : test_case.setups.empty() ? k_memmap_setups
                                                   : test_case.setups;
    std::string kept;
    for (const auto& setup : setups) {
      const std::string map = setup_map(setup);
      std::string why = pmem_case && !map.empty() ? target.limitation(map) : "";
      if (why.empty() && pmem_case) {
        why = layout_limitation(target, setup);
      }
      if (!why.empty()) {
        plan.skipped_setups.emplace_back(setup, why);
        continue;
      }
      kept += (kept.empty() ? "" : ":") + setup;
      plan.setups.push_back(setup);
      const std::string layout = qemu::setup_layout(setup);
      if (layout != "aligned" &&
          std::find(plan.layouts.begin(), plan.layouts.end(), layout) == plan.layouts.end()) {
        plan.layouts.push_back(layout);
      }
    }
    if (test_case.rebinds) {
      case_args.push_back("rebinds=" +
                          std::to_string(options.rebinds.value_or(*test_case.rebinds)));
    }
    case_args.push_back("setups=" + kept);
  }
  if (!options.extra_args.empty()) {
    case_args.push_back(options.extra_args);
  }
  std::string joined_args;
  for (const auto& arg : case_args) {
    joined_args += (joined_args.empty() ? "" : ",") + arg;
  }
  plan.guest_cmdline = test_case.cmdline;
  if (!target.cmdline.empty()) {
    plan.guest_cmdline += " " + target.cmdline;
  }
  plan.guest_cmdline += " kseries.case=" + test_case.name;
  if (!joined_args.empty()) {
    plan.guest_cmdline += " kseries.args=" + joined_args;
  }
  return plan;
}

}  // namespace kseries::session
