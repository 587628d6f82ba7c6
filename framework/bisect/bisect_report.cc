#include "bisect/bisect_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace kseries::bisect {

namespace {

std::string fixed(double value, const char* format = "%.2f") {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string prefix_name(const BisectOutcome& outcome, std::size_t prefix) {
  return std::to_string(prefix) + "/" + std::to_string(outcome.bisection.patches());
}

std::string subject_of(const BisectOutcome& outcome, std::size_t prefix) {
  return prefix == 0 ? "(the base)" : outcome.prefixes[prefix].subject;
}

bool is_timing(const BisectOutcome& outcome) {
  return outcome.bisection.policy().check == BisectCheck::k_timing;
}

// What a timing step compared with: "4/8", "the base", "zone-device-memmap/v6 5/8".
std::string reference_name(const BisectOutcome& outcome, std::size_t reference) {
  if (outcome.bisection.policy().reference == TimingReference::k_against) {
    const std::size_t m =
        outcome.reference_prefixes.empty() ? reference : outcome.reference_prefixes.size() - 1;
    return outcome.against + " " + std::to_string(std::min(reference, m)) + "/" + std::to_string(m);
  }
  return reference == 0 ? "the base" : prefix_name(outcome, reference);
}

std::string check_text(const BisectOutcome& outcome, const BisectFacts& facts) {
  const auto check = outcome.bisection.policy().check;
  std::string text = bisect_check_name(check);
  if (check == BisectCheck::k_timing) {
    const auto reference = outcome.bisection.policy().reference;
    text += " (" + facts.metric + " slower than " +
            (reference == TimingReference::k_last_good ? std::string("the last good prefix")
             : reference == TimingReference::k_base    ? std::string("the base")
                                                       : "the same prefix of " + outcome.against) +
            " by at least " + fixed(facts.threshold * 100, "%.1f") + " %)";
  } else if (check == BisectCheck::k_boot || check == BisectCheck::k_case) {
    text += " (" + std::to_string(outcome.bisection.policy().runs) +
            " run(s) a step at most, bad at " +
            std::to_string(failures_needed(outcome.bisection.policy().runs)) + " failure(s))";
  }
  return text;
}

std::string end_name(BisectEnd end) {
  switch (end) {
    case BisectEnd::k_culprit:
      return "culprit";
    case BisectEnd::k_tip_passes:
      return "no-culprit";
    case BisectEnd::k_inconclusive:
      return "inconclusive";
  }
  return "?";
}

std::string run_line(const BisectRun& run) {
  return run_outcome_name(run.outcome) + ": " + run.summary + " (" + std::to_string(run.builds) +
         " built, " + std::to_string(run.cached) + " cached, " + std::to_string(run.boots) +
         " boot(s), " + fixed(run.seconds, "%.0f") + " s)";
}

}  // namespace

std::string culprit_line(const BisectOutcome& outcome) {
  if (!outcome.bisection.finished()) {
    return "";
  }
  const auto result = outcome.bisection.result();
  if (result.end != BisectEnd::k_culprit || !result.culprit) {
    return "";
  }
  const auto& p = outcome.prefixes[*result.culprit];
  return "culprit: " + prefix_name(outcome, *result.culprit) + " " + p.subject + " (" + p.author +
         ")";
}

std::string render_bisect_text(const BisectOutcome& outcome, const BisectFacts& facts) {
  const auto& bisection = outcome.bisection;
  std::ostringstream out;
  out << "bisect " << outcome.series << ": " << bisection.patches() << " patch(es), check "
      << check_text(outcome, facts) << " on " << facts.target
      << (facts.test_case.empty() ? "" : " " + facts.test_case) << ", base " << facts.base_label
      << "\n";
  std::size_t number = 0;
  for (const auto& step : bisection.steps()) {
    out << "step " << ++number << " " << bisect_phase_name(step.phase) << " prefix "
        << prefix_name(outcome, step.prefix)
        << (is_timing(outcome) ? " against " + reference_name(outcome, step.reference) : "") << " "
        << step_verdict_name(step.verdict) << ": " << subject_of(outcome, step.prefix) << "\n";
    int run_number = 0;
    for (const auto& run : step.runs) {
      out << "  run " << ++run_number << " " << run_line(run) << "\n";
    }
  }
  if (!bisection.finished()) {
    return out.str();
  }
  const auto result = bisection.result();
  switch (result.end) {
    case BisectEnd::k_culprit:
      out << culprit_line(outcome) << "\n";
      break;
    case BisectEnd::k_tip_passes:
      out << "no culprit: " << result.reason << "\n";
      break;
    case BisectEnd::k_inconclusive:
      out << "inconclusive: " << result.reason << "\n";
      if (result.culprit) {
        const auto& p = outcome.prefixes[*result.culprit];
        out << "suspect: " << prefix_name(outcome, *result.culprit) << " " << p.subject << " ("
            << p.author << ")\n";
      }
      break;
  }
  if (result.culprit) {
    out << "confidence: " << fixed(result.confidence) << " (threshold "
        << fixed(bisection.policy().threshold) << ")\n";
  }
  const auto scan = estimate_linear_scan(bisection);
  out << "cost: " << result.cost.builds << " build(s), " << result.cost.cached
      << " from the cache, " << result.cost.boots << " boot(s), "
      << fixed(result.cost.seconds, "%.0f") << " s; a linear scan of every prefix: " << scan.builds
      << " build(s), " << scan.boots << " boot(s)";
  if (result.culprit) {
    out << " (stopping at the culprit: " << scan.builds_to_culprit << " build(s), "
        << scan.boots_to_culprit << " boot(s))";
  }
  out << "\n";
  return out.str();
}

nlohmann::json bisect_json(const BisectOutcome& outcome, const BisectFacts& facts) {
  const auto& bisection = outcome.bisection;
  const auto& policy = bisection.policy();
  nlohmann::json json = {{"series", outcome.series},
                         {"patches", bisection.patches()},
                         {"target", facts.target},
                         {"case", facts.test_case},
                         {"check", bisect_check_name(policy.check)},
                         {"metric", facts.metric},
                         {"threshold", facts.threshold},
                         {"runs", policy.runs},
                         {"timing_runs", policy.timing_runs},
                         {"failures_needed", failures_needed(policy.runs)},
                         {"confidence_threshold", policy.threshold},
                         {"base", facts.base_label},
                         {"timing_reference", timing_reference_name(policy.reference)},
                         {"against", outcome.against},
                         {"run_dir", facts.run_dir},
                         {"steps", nlohmann::json::array()}};
  for (const auto& step : bisection.steps()) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& run : step.runs) {
      runs.push_back({{"outcome", run_outcome_name(run.outcome)},
                      {"summary", run.summary},
                      {"builds", run.builds},
                      {"cached", run.cached},
                      {"boots", run.boots},
                      {"seconds", run.seconds}});
    }
    json["steps"].push_back(
        {{"prefix", step.prefix},
         {"subject", subject_of(outcome, step.prefix)},
         {"phase", bisect_phase_name(step.phase)},
         {"verdict", step_verdict_name(step.verdict)},
         {"reference", step.reference},
         {"reference_name",
          is_timing(outcome) ? reference_name(outcome, step.reference) : std::string()},
         {"runs", runs}});
  }
  if (!bisection.finished()) {
    json["result"] = {{"status", "running"}};
    return json;
  }
  const auto result = bisection.result();
  const auto scan = estimate_linear_scan(bisection);
  json["result"] = {{"status", end_name(result.end)},
                    {"reason", result.reason},
                    {"confidence", result.confidence},
                    {"line", culprit_line(outcome)}};
  if (result.culprit) {
    const auto& p = outcome.prefixes[*result.culprit];
    json["result"]["culprit"] = {
        {"index", *result.culprit}, {"subject", p.subject}, {"author", p.author}};
  }
  json["cost"] = {{"builds", result.cost.builds},
                  {"cached", result.cost.cached},
                  {"boots", result.cost.boots},
                  {"seconds", result.cost.seconds}};
  json["linear_scan"] = {{"builds", scan.builds},
                         {"boots", scan.boots},
                         {"builds_to_culprit", scan.builds_to_culprit},
                         {"boots_to_culprit", scan.boots_to_culprit}};
  return json;
}

report::TestSuite bisect_junit(const BisectOutcome& outcome, const BisectFacts& facts) {
  const auto& bisection = outcome.bisection;
  report::TestSuite suite;
  suite.name = "kseries bisect " + outcome.series;
  suite.timestamp = report::utc_timestamp();
  suite.properties = {{"target", facts.target},
                      {"case", facts.test_case},
                      {"check", bisect_check_name(bisection.policy().check)}};
  const std::string classname = "bisect." + outcome.series;
  std::size_t number = 0;
  for (const auto& step : bisection.steps()) {
    report::TestCase test;
    test.classname = classname;
    test.name = "step " + std::to_string(++number) + " " + bisect_phase_name(step.phase) +
                " prefix " + prefix_name(outcome, step.prefix) + " " +
                subject_of(outcome, step.prefix);
    int builds = 0, boots = 0;
    for (const auto& run : step.runs) {
      test.seconds += run.seconds;
      builds += run.builds;
      boots += run.boots;
      test.detail += run_line(run) + "\n";
    }
    test.message = step_verdict_name(step.verdict) +
                   (step.runs.empty() ? "" : ": " + step.runs.back().summary);
    if (step.verdict == StepVerdict::k_bad) {
      test.status = report::CaseStatus::k_failed;
    } else if (step.verdict != StepVerdict::k_good) {
      test.status = report::CaseStatus::k_skipped;
    }
    test.properties = {{"prefix", std::to_string(step.prefix)},
                       {"verdict", step_verdict_name(step.verdict)},
                       {"runs", std::to_string(step.runs.size())},
                       {"builds", std::to_string(builds)},
                       {"boots", std::to_string(boots)}};
    if (is_timing(outcome)) {
      test.properties.emplace_back("against", reference_name(outcome, step.reference));
    }
    suite.cases.push_back(std::move(test));
  }
  if (!bisection.finished()) {
    return suite;
  }
  const auto result = bisection.result();
  report::TestCase test;
  test.classname = classname;
  test.name = "result";
  test.seconds = result.cost.seconds;
  const std::string line = culprit_line(outcome);
  test.message = line.empty() ? end_name(result.end) + ": " + result.reason : line;
  if (result.end != BisectEnd::k_culprit) {
    test.status = report::CaseStatus::k_failed;
  }
  test.properties = {{"result", end_name(result.end)},
                     {"confidence", fixed(result.confidence)},
                     {"builds", std::to_string(result.cost.builds)},
                     {"cached", std::to_string(result.cost.cached)},
                     {"boots", std::to_string(result.cost.boots)}};
  if (result.culprit) {
    test.properties.emplace_back("culprit", std::to_string(*result.culprit));
  }
  suite.properties.emplace_back("result", end_name(result.end));
  suite.cases.push_back(std::move(test));
  return suite;
}

}  // namespace kseries::bisect
