#include "session/case_plan.h"

#include <algorithm>
#include <sstream>

namespace kseries::session {

namespace {

const std::vector<std::string> k_memmap_setups = {"fsdax-mem", "fsdax-dev", "devdax-mem",
                                                  "devdax-dev"};

// "fsdax-dev" -> "map=dev": the name targets use in their `cannot:` lines.
std::string setup_map(const std::string& setup) {
  const auto dash = setup.rfind('-');
  return dash == std::string::npos ? "" : "map=" + setup.substr(dash + 1);
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
      const std::string why = pmem_case && !map.empty() ? target.limitation(map) : "";
      if (!why.empty()) {
        plan.skipped_setups.emplace_back(setup, why);
      } else {
        kept += (kept.empty() ? "" : ":") + setup;
        plan.setups.push_back(setup);
      }
    }
    if (test_case.name == "memmap-timing") {
      case_args.push_back("rebinds=" + std::to_string(options.rebinds));
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
