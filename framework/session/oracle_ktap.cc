#include "session/oracle_ktap.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "oracle/bulk_blobs.h"
#include "oracle/ktap_compare.h"
#include "session/boot_session.h"
#include "sys/files.h"

namespace kseries::session {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_prefix = "ktap-";
// kunit_parser loops for ever on some malformed input (a plan after the
// results: docs/selftests.md); a real document of thousands of lines
// parses in about a second.
constexpr auto k_parser_timeout = std::chrono::seconds(120);

// kunit.py parse's own steps (parse_run_tests), with every level of the
// tree and its own status kept: kunit_json drops a group's status.
constexpr const char* k_driver = R"PY(
import json, sys
sys.path.insert(0, sys.argv[1])
import kunit_parser
with open(sys.argv[2], 'r', errors='backslashreplace') as f:
    test = kunit_parser.parse_run_tests(f.readlines())
def node(t):
    return {'name': t.name, 'status': t.status.name,
            'subtests': [node(s) for s in t.subtests]}
with open(sys.argv[3], 'w') as f:
    json.dump(node(test), f)
)PY";

// A suite name from the guest, as a file name.
std::string file_part(const std::string& name) {
  std::string out;
  for (const char c : name.substr(0, 64)) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    out += ok ? c : '_';
  }
  return out;
}

// What a boot keeps for the pairing (BootRecord::evidence): its suites as
// the parser read them, suite -> its tests.
struct KtapEvidence {
  std::map<std::string, std::vector<oracle::KtapTest>> suites;
};

bool is_candidate(KernelRole role) {
  return role == KernelRole::k_candidate || role == KernelRole::k_control;
}

// One boot's parsed suites (none when no blob of it parsed).
std::map<std::string, std::vector<oracle::KtapTest>> parsed_suites(const BootRecord& record) {
  const auto* evidence = evidence_of<KtapEvidence>(record);
  return evidence ? evidence->suites : std::map<std::string, std::vector<oracle::KtapTest>>{};
}

// The verdicts of judge_boot that are failures of the boot itself (a blob
// that did not read or parse): kept whatever the comparison says.
std::vector<oracle::SetupVerdict> broken(const BootRecord& record) {
  std::vector<oracle::SetupVerdict> out;
  for (const auto& verdict : record.verdicts) {
    if (verdict.status != oracle::VerdictStatus::k_pass) {
      out.push_back(verdict);
    }
  }
  return out;
}

// Every boot of the roles PICK, per suite.
std::map<std::string, oracle::KtapSide> sides(const std::vector<BootRecord>& records,
                                              bool (*pick)(KernelRole)) {
  std::map<std::string, oracle::KtapSide> out;
  for (const auto& record : records) {
    if (!pick(record.role)) {
      continue;
    }
    for (auto& [suite, tests] : parsed_suites(record)) {
      auto& side = out[suite];
      side.kernel = record.kernel;
      side.boots.push_back(std::move(tests));
    }
  }
  return out;
}

// A lone kernel: each test's own outcome is its verdict.
std::vector<oracle::SetupVerdict> absolute(const std::string& suite, const oracle::KtapSide& side) {
  std::vector<oracle::SetupVerdict> verdicts{oracle::summarize_ktap(suite, side)};
  for (const auto& test : side.boots.front()) {
    const auto status = oracle::is_bad(test.outcome) ? oracle::VerdictStatus::k_fail
                        : test.outcome == oracle::KtapOutcome::k_skip
                            ? oracle::VerdictStatus::k_skip
                            : oracle::VerdictStatus::k_pass;
    verdicts.push_back({test.path, status,
                        std::string(oracle::ktap_outcome_name(test.outcome)) +
                            " (no baseline kernel in this session to compare with)",
                        ""});
  }
  return verdicts;
}

class KtapOracle final : public Oracle {
 public:
  std::string name() const override { return "ktap"; }
  bool needs_baseline() const override { return true; }

  void judge_boot(BootRecord& record) const override {
    const fs::path kunit = kunit_dir_of(record.system_map);
    const fs::path dir = record.run.protocol.parent_path();
    const std::string prefix = boot_file_prefix(record.role, record.round, record.rerun);
    SystemProcessRunner runner;
    for (const auto& blob : oracle::blob_refs(record.events)) {
      if (!blob.name.starts_with(k_prefix)) {
        continue;
      }
      const std::string suite = blob.name.substr(k_prefix.size());
      const fs::path base = dir / (prefix + "-ktap-" + file_part(suite));
      try {
        if (kunit.empty()) {
          throw check_failure("no copy of the tree's tools/testing/kunit beside kernel " +
                              record.system_map.parent_path().string() +
                              " (the test payload stores it)");
        }
        write_file(fs::path(base.string() + ".ktap"), oracle::read_blob(record.run.bulk, blob));
        run_kunit_parser(runner, kunit, base.string() + ".ktap", base.string() + ".json",
                         base.string() + ".txt");
        const auto tree = nlohmann::json::parse(read_file(base.string() + ".json"));
        const auto tests = oracle::flatten_ktap(tree, suite);
        evidence_of<KtapEvidence>(record).suites[suite] = tests;
        record.verdicts.push_back({suite, oracle::VerdictStatus::k_pass,
                                   std::to_string(tests.size()) +
                                       " results read by the tree's kunit_parser.py (" +
                                       base.filename().string() + ".txt)",
                                   oracle::encode_ktap(tests)});
      } catch (const nlohmann::json::exception& e) {
        record.verdicts.push_back({suite, oracle::VerdictStatus::k_fail,
                                   std::string("the KTAP parser's output is not JSON: ") + e.what(),
                                   ""});
      } catch (const Error& e) {
        if (e.kind() == ErrorKind::k_interrupted) {
          throw;
        }
        record.verdicts.push_back({suite, oracle::VerdictStatus::k_fail, e.what(), ""});
      }
    }
  }

  void conclude(std::vector<BootRecord>& records, Status& status) const override {
    const auto baseline = sides(records, &is_baseline);
    const auto candidate = sides(records, &is_candidate);
    std::set<std::string> suites;
    for (const auto& [suite, side] : baseline) {
      suites.insert(suite);
    }
    for (const auto& [suite, side] : candidate) {
      suites.insert(suite);
    }
    const bool paired = std::any_of(records.begin(), records.end(),
                                    [](const BootRecord& r) { return is_baseline(r.role); }) &&
                        std::any_of(records.begin(), records.end(),
                                    [](const BootRecord& r) { return is_candidate(r.role); });
    std::map<const BootRecord*, std::vector<oracle::SetupVerdict>> verdicts;
    const auto first_of = [&](bool (*pick)(KernelRole)) -> BootRecord* {
      for (auto& r : records) {
        if (pick(r.role)) {
          return &r;
        }
      }
      return nullptr;
    };
    BootRecord* first_baseline = first_of(&is_baseline);
    BootRecord* first_candidate = first_of(&is_candidate);
    for (const auto& suite : suites) {
      const auto b = baseline.find(suite);
      const auto c = candidate.find(suite);
      if (paired) {
        oracle::KtapSide base_side = b != baseline.end() ? b->second : oracle::KtapSide{};
        oracle::KtapSide cand_side = c != candidate.end() ? c->second : oracle::KtapSide{};
        base_side.kernel = first_baseline->kernel;
        cand_side.kernel = first_candidate->kernel;
        auto judged = oracle::judge_ktap_vs_base(suite, base_side, cand_side);
        status.progress("oracle " + cand_side.kernel + " " + judged.front().setup + ": " +
                        judged.front().summary);
        auto& into = verdicts[first_candidate];
        into.insert(into.end(), judged.begin(), judged.end());
        if (!base_side.boots.empty()) {
          verdicts[first_baseline].push_back(oracle::summarize_ktap(suite, base_side));
        }
      } else {
        const auto& side = b != baseline.end() ? b->second : c->second;
        BootRecord* lone = b != baseline.end() ? first_baseline : first_candidate;
        auto judged = absolute(suite, side);
        auto& into = verdicts[lone];
        into.insert(into.end(), judged.begin(), judged.end());
      }
    }
    for (auto& record : records) {
      auto kept = broken(record);
      const auto found = verdicts.find(&record);
      if (found != verdicts.end()) {
        kept.insert(kept.end(), found->second.begin(), found->second.end());
      }
      record.verdicts = std::move(kept);
    }
  }
};

}  // namespace

void run_kunit_parser(ProcessRunner& runner, const fs::path& kunit_dir, const fs::path& ktap_file,
                      const fs::path& json_file, const fs::path& text_file) {
  ProcessSpec spec;
  spec.argv = {"python3",         "-c", k_driver, kunit_dir.string(), ktap_file.string(),
               json_file.string()};
  spec.timeout = k_parser_timeout;
  spec.capture = false;
  spec.log_file = text_file;
  std::error_code ec;
  fs::remove(json_file, ec);
  fs::remove(text_file, ec);
  const auto result = runner.run(spec);
  if (!result.ok() || !fs::exists(json_file)) {
    std::string tail;
    if (fs::exists(text_file)) {
      const std::string text = read_file(text_file);
      tail = text.substr(text.size() > 600 ? text.size() - 600 : 0);
    }
    throw check_failure("the tree's KTAP parser (" + (kunit_dir / "kunit_parser.py").string() +
                        ") on " + ktap_file.filename().string() + ": " + result.describe() +
                        (result.end == ProcessEnd::k_timed_out
                             ? " (it loops on a plan after the results: docs/selftests.md)"
                             : "") +
                        (tail.empty() ? "" : "\n" + tail));
  }
}

fs::path kunit_dir_of(const fs::path& system_map) {
  const fs::path modules = system_map.parent_path() / "modules";
  std::error_code ec;
  if (!fs::is_directory(modules, ec)) {
    return {};
  }
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(modules, ec)) {
    if (fs::is_regular_file(entry.path() / "kunit" / "kunit_parser.py", ec)) {
      found.push_back(entry.path() / "kunit");
    }
  }
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path{} : found.front();
}

std::unique_ptr<Oracle> make_ktap_oracle() { return std::make_unique<KtapOracle>(); }

}  // namespace kseries::session
