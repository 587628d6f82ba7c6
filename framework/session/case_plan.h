#pragma once
// What a case will do on a target, decided before any kernel is built: the
// case skipped as a whole (a feature the target lacks), the setups the
// target cannot do (its `cannot:` lines) skipped with their reasons, the
// setups kept, and the guest's command line. A plan with nothing left to
// boot builds nothing.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cases/case_def.h"
#include "kernel/target.h"

namespace kseries::session {

struct CasePlan {
  std::optional<std::string> skipped;                               // the whole case: why
  std::vector<std::pair<std::string, std::string>> skipped_setups;  // (setup, why)
  std::vector<std::string> setups;  // kept: each must get a result from the guest
  // The pmem layouts besides the aligned region the kept setups name
  // (`@share-first`, `@share-last`: qemu/pmem_layout.h); each is a region
  // of its own on the guest's command line.
  std::vector<std::string> layouts;
  std::string guest_cmdline;  // case + target command line, kseries.case=, kseries.args=

  // Setups were asked for (or are the case's) and every one is skipped.
  bool nothing_to_boot() const { return !skipped_setups.empty() && setups.empty(); }
};

struct CaseOptions {
  std::optional<std::vector<std::string>> setups;  // --setups, else the case's or the pmem four
  std::optional<int> rebinds;  // --rebinds, a matrix's rebinds=; else the case's `rebinds:`
  std::string extra_args;      // --args
};

CasePlan plan_case(const kernel::Target& target, const cases::CaseDef& test_case,
                   const CaseOptions& options);

// The setups TEST_CASE knows: its own `setups:`, else the four pmem setups
// for a case that needs pmem, else none (a case without setups).
std::vector<std::string> known_setups(const cases::CaseDef& test_case);

// Whether TEST_CASE can run SETUP: one of known_setups(), or for a case
// that needs pmem any pmem setup name (lib/pmem.sh:
// <fsdax|devdax>[4k|2m|1g]-<mem|dev>[@LAYOUT], LAYOUT one of
// qemu/pmem_layout.h's).
bool is_known_setup(const cases::CaseDef& test_case, const std::string& setup);

// "a,b,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace kseries::session
