#pragma once
// A bisection rendered three ways from the same steps: the text (stdout,
// bisect.txt) with the evidence per step and one greppable result line
// (`culprit: K/N <subject> (<author>)`, else `inconclusive: …` or
// `no culprit: …`), bisect.json, and one JUnit suite. Renders only.

#include <nlohmann/json.hpp>
#include <string>

#include "bisect/bisect_runner.h"
#include "report/junit.h"

namespace kseries::bisect {

// What was bisected, for the headers.
struct BisectFacts {
  std::string target;
  std::string test_case;  // "" for apply and build
  std::string metric;     // timing
  double threshold = 0;   // timing, a fraction
  std::string base_label;
  std::string run_dir;
};

// "culprit: 5/8 mm: … (Name <email>)", or "" when no culprit was named.
std::string culprit_line(const BisectOutcome& outcome);

// Works on a finished bisection and on one still running (the evidence so
// far, no result lines).
std::string render_bisect_text(const BisectOutcome& outcome, const BisectFacts& facts);
nlohmann::json bisect_json(const BisectOutcome& outcome, const BisectFacts& facts);
// One testcase per step (a bad step fails, an untestable or unknown one is
// skipped) and a final `result` testcase that passes only when a culprit
// was named.
report::TestSuite bisect_junit(const BisectOutcome& outcome, const BisectFacts& facts);

}  // namespace kseries::bisect
