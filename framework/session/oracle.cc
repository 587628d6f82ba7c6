#include "session/oracle.h"

#include <algorithm>

#include "core/error.h"
#include "guest/case_status.h"

namespace kseries::session {

std::vector<oracle::SetupVerdict> Oracle::judge_pair(const BootRecord&, const BootRecord&) const {
  return {};
}

void Oracle::conclude(std::vector<BootRecord>&, Status&) const {}

std::set<std::string> Oracle::judged_setups(const BootRecord& record) const {
  std::set<std::string> judged;
  for (const auto& verdict : record.verdicts) {
    judged.insert(verdict.setup);
  }
  return judged;
}

const BootRecord* baseline_of(const std::vector<BootRecord>& records, const BootRecord& candidate) {
  const auto found = std::find_if(records.begin(), records.end(), [&](const BootRecord& r) {
    return is_baseline(r.role) && r.round == candidate.round;
  });
  return found == records.end() ? nullptr : &*found;
}

std::vector<std::string> oracle_names() {
  std::vector<std::string> names;
  for (const auto& oracle : registered_oracles()) {
    names.push_back(oracle->name());
  }
  return names;
}

const Oracle* find_oracle(const std::string& name) {
  if (name.empty()) {
    return nullptr;
  }
  for (const auto& oracle : registered_oracles()) {
    if (oracle->name() == name) {
      return oracle.get();
    }
  }
  std::string known;
  for (const auto& n : oracle_names()) {
    known += (known.empty() ? "" : ", ") + n;
  }
  throw usage_error("unknown oracle '" + name + "' (known: " + known + ")");
}

std::vector<std::string> missing_evidence(const Oracle& oracle, const BootRecord& record) {
  std::vector<std::string> problems;
  if (!record.powered_off) {
    return problems;  // the boot failed already, for its own reason
  }
  const std::set<std::string> judged = oracle.judged_setups(record);
  for (const auto& setup : guest::passed_subjects(record.events)) {
    if (!judged.count(setup)) {
      problems.push_back("oracle " + oracle.name() + " has nothing to judge for setup " + setup +
                         " (no dump of it on the bulk disk, no measurement)");
    }
  }
  return problems;
}

std::vector<PairVerdict> judge_pairs(const Oracle& oracle, const std::vector<BootRecord>& records) {
  std::vector<PairVerdict> pairs;
  if (!oracle.needs_baseline()) {
    return pairs;
  }
  for (const auto& candidate : records) {
    if (candidate.role != KernelRole::k_candidate) {
      continue;
    }
    const auto baseline = std::find_if(records.begin(), records.end(), [&](const BootRecord& r) {
      return is_baseline(r.role) && r.round == candidate.round;
    });
    if (baseline == records.end()) {
      pairs.push_back(
          {&candidate,
           {"all", oracle::VerdictStatus::k_fail,
            "no baseline boot #" + std::to_string(candidate.round) + " to compare with", ""}});
      continue;
    }
    for (auto& verdict : oracle.judge_pair(*baseline, candidate)) {
      pairs.push_back({&candidate, std::move(verdict)});
    }
  }
  return pairs;
}

}  // namespace kseries::session
