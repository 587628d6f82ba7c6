#include "oracle/ktap_results.h"

#include <map>

#include "core/error.h"
#include "core/text.h"

namespace kseries::oracle {

namespace {

// Deep enough for kselftest (category, program, harness test) and KUnit
// (module, suite, parameterised case); a deeper tree is not a test run.
constexpr int k_max_depth = 16;

KtapOutcome from_status(const std::string& status) {
  if (status == "SUCCESS") {
    return KtapOutcome::k_pass;
  }
  if (status == "SKIPPED") {
    return KtapOutcome::k_skip;
  }
  if (status == "FAILURE") {
    return KtapOutcome::k_fail;
  }
  if (status == "TEST_CRASHED" || status == "NO_TESTS" || status == "FAILURE_TO_PARSE_TESTS") {
    return KtapOutcome::k_crashed;
  }
  throw check_failure("the KTAP parser reported an unknown status '" + status.substr(0, 64) + "'");
}

// Names are guest text: one line, no tab (the encoding's separator).
std::string clean_name(std::string name) {
  for (char& c : name) {
    if (c == '\t' || c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  return std::string(trim(name)).substr(0, 256);
}

void walk(const nlohmann::json& node, const std::string& path, int depth,
          std::vector<KtapTest>& out) {
  if (depth > k_max_depth) {
    throw check_failure("the KTAP tree is deeper than " + std::to_string(k_max_depth) + " at " +
                        path);
  }
  const auto subtests = node.find("subtests");
  if (subtests == node.end()) {
    return;
  }
  if (!subtests->is_array()) {
    throw check_failure("the KTAP tree's subtests of " + path + " are not a list");
  }
  std::map<std::string, int> seen;
  int index = 0;
  for (const auto& sub : *subtests) {
    ++index;
    if (!sub.is_object() || !sub.contains("status") || !sub["status"].is_string()) {
      throw check_failure("the KTAP tree has a test without a status under " + path);
    }
    std::string name =
        sub.contains("name") && sub["name"].is_string() ? clean_name(sub["name"]) : "";
    if (name.empty()) {
      name = "#" + std::to_string(index);
    }
    if (const int n = ++seen[name]; n > 1) {
      name += " #" + std::to_string(n);
    }
    const std::string sub_path = path + "/" + name;
    out.push_back({sub_path, from_status(sub["status"].get<std::string>())});
    walk(sub, sub_path, depth + 1, out);
  }
}

}  // namespace

std::string_view ktap_outcome_name(KtapOutcome outcome) {
  switch (outcome) {
    case KtapOutcome::k_pass:
      return "pass";
    case KtapOutcome::k_fail:
      return "fail";
    case KtapOutcome::k_skip:
      return "skip";
    case KtapOutcome::k_crashed:
      return "crashed";
  }
  return "crashed";
}

std::optional<KtapOutcome> parse_ktap_outcome(std::string_view name) {
  for (const auto outcome :
       {KtapOutcome::k_pass, KtapOutcome::k_fail, KtapOutcome::k_skip, KtapOutcome::k_crashed}) {
    if (ktap_outcome_name(outcome) == name) {
      return outcome;
    }
  }
  return std::nullopt;
}

bool is_bad(KtapOutcome outcome) {
  return outcome == KtapOutcome::k_fail || outcome == KtapOutcome::k_crashed;
}

std::vector<KtapTest> flatten_ktap(const nlohmann::json& root, const std::string& suite) {
  if (!root.is_object()) {
    throw check_failure("the KTAP parser's result is not a test tree");
  }
  std::vector<KtapTest> out;
  walk(root, suite, 0, out);
  if (out.empty()) {
    // No test at all (no KTAP found, or "0 tests run!"): the suite's own
    // status stands for it, so that it is compared, never dropped.
    const auto status = root.find("status");
    out.push_back({suite, status != root.end() && status->is_string()
                              ? from_status(status->get<std::string>())
                              : KtapOutcome::k_crashed});
  }
  return out;
}

std::string encode_ktap(const std::vector<KtapTest>& tests) {
  std::string text;
  for (const auto& test : tests) {
    text += std::string(ktap_outcome_name(test.outcome)) + "\t" + test.path + "\n";
  }
  return text;
}

}  // namespace kseries::oracle
