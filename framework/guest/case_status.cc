#include "guest/case_status.h"

#include <algorithm>

namespace kseries::guest {

std::vector<std::string> case_problems(const std::vector<Event>& events,
                                       const std::vector<std::string>& setups) {
  std::vector<std::string> problems;
  const auto find_verb = [&](const std::string& verb) {
    return std::find_if(events.begin(), events.end(),
                        [&](const Event& e) { return e.verb == verb; });
  };
  const auto start = find_verb("case-start");
  if (start == events.end()) {
    if (find_verb("guest-error") == events.end()) {
      problems.push_back("the case never started (no case-start from the guest)");
    }
    return problems;
  }
  const auto end = find_verb("case-end");
  if (end == events.end()) {
    problems.push_back("the case '" + start->get("name") +
                       "' did not finish (no case-end: the guest died or hung inside it)");
  } else if (end->get("rc") != "0") {
    problems.push_back("the case '" + end->get("name") +
                       "' exited with rc=" + (end->get("rc").empty() ? "?" : end->get("rc")) +
                       " (protocol line " + std::to_string(end->line) + ")");
  }
  std::set<std::string> reported;
  for (const auto& event : events) {
    if (event.verb == "result") {
      reported.insert(event.get("subject"));
    }
  }
  for (const auto& setup : setups) {
    if (!reported.count(setup)) {
      problems.push_back("no result for setup " + setup + " (the case emitted nothing for it)");
    }
  }
  return problems;
}

std::set<std::string> passed_subjects(const std::vector<Event>& events) {
  std::set<std::string> passed;
  for (const auto& event : events) {
    if (event.verb == "result" && event.get("status") == "pass") {
      passed.insert(event.get("subject"));
    }
  }
  return passed;
}

}  // namespace kseries::guest
