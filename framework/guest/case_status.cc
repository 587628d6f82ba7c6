#include "guest/case_status.h"

#include <algorithm>

namespace kseries::guest {

bool known_status(const std::string& status) {
  return status == "pass" || status == "fail" || status == "skip";
}

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
  // Every case-end counts: a second "rc=3" after "rc=0" is the case
  // failing, not noise.
  std::vector<const Event*> ends;
  for (const auto& event : events) {
    if (event.verb == "case-end") {
      ends.push_back(&event);
    }
  }
  if (ends.empty()) {
    problems.push_back("the case '" + start->get("name") +
                       "' did not finish (no case-end: the guest died or hung inside it)");
  }
  if (ends.size() > 1) {
    problems.push_back("the case '" + start->get("name") + "' ended " +
                       std::to_string(ends.size()) + " times (case-end on protocol lines " +
                       std::to_string(ends.front()->line) + " and " +
                       std::to_string(ends.back()->line) + ")");
  }
  for (const Event* end : ends) {
    if (end->get("rc") != "0") {
      problems.push_back("the case '" + end->get("name") +
                         "' exited with rc=" + (end->get("rc").empty() ? "?" : end->get("rc")) +
                         " (protocol line " + std::to_string(end->line) + ")");
    }
  }
  for (const auto& event : events) {
    if (event.verb == "result" && !known_status(event.get("status"))) {
      problems.push_back("result for " + event.get("subject") + " has status '" +
                         event.get("status") +
                         "': the protocol knows pass, fail and skip (protocol line " +
                         std::to_string(event.line) + ")");
    }
    // Every measurement is a time or a count: a finite number from 0 to
    // k_max_guest_number, where it enters.
    if (event.verb == "measure" && !(event.number("value").value_or(-1) >= 0)) {
      problems.push_back("measurement " + event.get("metric") + " of " + event.get("setup") +
                         " has value '" + event.get("value").substr(0, 40) +
                         "': not a number from 0 to 1e15 (protocol line " +
                         std::to_string(event.line) + ")");
    }
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
