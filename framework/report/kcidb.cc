#include "report/kcidb.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "core/text.h"
#include "oracle/sha256.h"
#include "report/junit.h"
#include "report/markup.h"

namespace kseries::report {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// KCIDB's limit on log excerpts (16384 characters); a byte bound below it
// keeps any UTF-8 text under it.
constexpr std::size_t k_excerpt_bytes = 16000;

std::string clean(std::string_view text) { return xml_safe(text); }

std::string excerpt(std::string_view text) {
  std::string out = clean(text);
  if (out.size() <= k_excerpt_bytes) {
    return out;
  }
  std::size_t cut = k_excerpt_bytes;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) {
    --cut;  // not inside a UTF-8 sequence
  }
  return out.substr(0, cut) + "\n[cut at 16 KB]";
}

// A node of a test path: KCIDB allows [A-Za-z0-9_-].
std::string path_part(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    out += ok ? c : '_';
  }
  return out.empty() ? "_" : out;
}

// An oracle verdict's word (oracle::verdict_name: pass, fail, skip) as an
// outcome: anything else is a failure, never a pass.
results::Outcome verdict_outcome(const std::string& status) {
  const auto outcome = results::parse_outcome(status);
  return outcome && (*outcome == results::Outcome::k_pass || *outcome == results::Outcome::k_skip)
             ? *outcome
             : results::Outcome::k_fail;
}

// A cell's outcome in KCIDB's test status vocabulary (DONE and MISS, which
// no outcome maps to, are written where a timing or coverage test has them).
std::string status_of(results::Outcome outcome) {
  switch (outcome) {
    case results::Outcome::k_pass:
      return "PASS";
    case results::Outcome::k_fail:
      return "FAIL";
    case results::Outcome::k_skip:
      return "SKIP";
    default:
      return "ERROR";
  }
}

// A figure results.json may lack: null then, as KCIDB's misc had it.
json or_null(const std::optional<double>& value) { return value ? json(*value) : json(); }

// [low, high], or [] when results.json has none.
json ends(const std::optional<results::IntervalRecord>& interval) {
  return interval ? json::array({interval->low, interval->high}) : json::array();
}

bool is_sha1(const std::string& text) {
  return text.size() == 40 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The lines of a per-patch cell's detail about patch K: its failure line,
// the indented errors under it, the warnings it adds.
std::string patch_lines(const std::string& detail, int k) {
  const std::string prefix = "patch " + std::to_string(k) + "/";
  std::string out;
  bool in = false;
  for (const auto line : split_lines(detail)) {
    if (starts_with(line, "patch ")) {
      in = starts_with(line, prefix);
    } else if (!starts_with(line, "  ")) {
      in = false;
    }
    if (in) {
      out += std::string(line) + "\n";
    }
  }
  return out;
}

class KcidbWriter {
 public:
  KcidbWriter(const RunRecord& run, const KcidbOptions& options)
      : m_run(run), m_prefix(options.origin + ":" + clean(run.name())), m_origin(options.origin) {}

  json render() {
    if (m_run.kind == "gate") {
      for (const auto& series : m_run.series) {
        add_series_checkout(series);
      }
    } else {
      add_session_checkouts();
    }
    for (const auto& cell : m_run.cells) {
      if (const auto id = cell.id(); id && id->kind == results::k_per_patch_cell) {
        add_per_patch_builds(cell);
      } else if (id && id->kind == results::k_coverage_cell) {
        add_coverage(cell);
      } else if (!cell.test_case().empty()) {
        add_cell(cell);
      }
    }
    return {{"version", {{"major", k_kcidb_major}, {"minor", k_kcidb_minor}}},
            {"checkouts", m_checkouts},
            {"builds", m_builds},
            {"tests", m_tests}};
  }

 private:
  std::string checkout_id(const std::string& series) const {
    return m_prefix + ":" + clean(series);
  }

  json base_checkout(const std::string& series) const {
    json checkout = {{"id", checkout_id(series)}, {"origin", m_origin}};
    if (!m_run.started.empty()) {
      checkout["start_time"] = m_run.started;
    }
    if (!m_run.base_label.empty()) {
      checkout["tree_name"] = clean(m_run.base_label);
    }
    return checkout;
  }

  void add_series_checkout(const results::SeriesRecord& series) {
    json checkout = base_checkout(series.series);
    if (is_sha1(m_run.base_commit)) {
      checkout["git_commit_hash"] = m_run.base_commit;
    }
    json files = json::array();
    std::vector<std::string> hashes;
    for (const auto& patch : series.patches) {
      files.push_back({{"name", clean(fs::path(patch.file).filename().string())},
                       {"url", file_url(patch.file)}});
      hashes.push_back(patch.sha256);
    }
    checkout["patchset_files"] = files;
    checkout["patchset_hash"] = patchset_hash(hashes);
    checkout["comment"] =
        clean(series.series + ": " + std::to_string(series.patches.size()) + " patch(es)" +
              (series.patches.empty() ? "" : ", " + series.patches[0].subject));
    json misc = {{"known_bad", series.verdict && series.verdict->known_bad}};
    if (series.verdict) {
      misc["verdict"] = results::verdict_key(series.verdict->outcome);
      json lines = json::array();
      for (const auto& reason : series.verdict->reasons) {
        lines.push_back(clean(results::reason_line(reason)));
      }
      misc["verdict_lines"] = lines;
    }
    if (const RunCell* apply = m_run.find_cell(series.series, results::k_apply_cell)) {
      checkout["valid"] = apply->status == results::Outcome::k_pass;
      if (apply->status != results::Outcome::k_pass) {
        checkout["log_excerpt"] = excerpt(apply->detail.empty() ? apply->summary : apply->detail);
      }
      if (const auto tip = apply->property("tip"); !tip.empty()) {
        misc["tip"] = clean(tip);
      }
    }
    if (const RunCell* checkpatch = m_run.find_cell(series.series, results::k_checkpatch_cell)) {
      misc["checkpatch"] = clean(checkpatch->summary);
    }
    checkout["misc"] = misc;
    m_checkouts.push_back(checkout);
  }

  // `kseries boot`: a checkout per kernel the session booted, at its commit.
  void add_session_checkouts() {
    std::set<std::string> seen;
    for (const auto& cell : m_run.cells) {
      if (!cell.session) {
        continue;
      }
      for (const auto& [name, kernel] : cell.session->kernels) {
        if (!seen.insert(name).second) {
          continue;
        }
        json checkout = base_checkout(name);
        if (is_sha1(kernel.commit)) {
          checkout["git_commit_hash"] = kernel.commit;
        }
        checkout["patchset_hash"] = "";
        checkout["valid"] = true;
        checkout["comment"] = clean(name + " (" + kernel.role + ")");
        m_checkouts.push_back(checkout);
      }
    }
  }

  // The kernel's architecture as the cell recorded it (runs before arm64
  // targets existed were all x86_64).
  static std::string architecture(const RunCell& cell) {
    const std::string arch = cell.kernel_fact("candidate", results::KernelFact::k_arch);
    return arch.empty() ? "x86_64" : arch;
  }

  void add_per_patch_builds(const RunCell& cell) {
    const std::string target = cell.target();
    for (int k = 1;; ++k) {
      const std::string built = cell.patch_fact(k, results::PatchFact::k_build);
      if (built.empty()) {
        break;
      }
      json build = {{"id", checkout_id(cell.series) + ":per-patch:" + clean(target) + ":" +
                               std::to_string(k)},
                    {"origin", m_origin},
                    {"checkout_id", checkout_id(cell.series)},
                    {"config_name", clean(target)},
                    {"architecture", architecture(cell)}};
      build["status"] = status_of(built == "built" || built == "cached" ? results::Outcome::k_pass
                                  : built == "failed"                   ? results::Outcome::k_fail
                                                      : results::Outcome::k_error);
      if (const auto seconds = cell.patch_fact(k, results::PatchFact::k_seconds);
          !seconds.empty()) {
        build["duration"] = std::stod(seconds);
      }
      if (const auto log = cell.patch_fact(k, results::PatchFact::k_log); !log.empty()) {
        build["log_url"] = file_url(log);
      }
      if (const auto lines = patch_lines(cell.detail, k); !lines.empty()) {
        build["log_excerpt"] = excerpt(lines);
      }
      const results::SeriesRecord* series = m_run.find_series(cell.series);
      std::string subject;
      if (series && static_cast<std::size_t>(k) <= series->patches.size()) {
        subject = series->patches[static_cast<std::size_t>(k) - 1].subject;
      }
      build["comment"] = clean("after patch " + std::to_string(k) + ": " + subject);
      json misc = {{"patch", k}, {"result", built}};
      for (const auto& [field, fact] :
           {std::pair{"warnings", results::PatchFact::k_warnings},
            std::pair{"new_warnings", results::PatchFact::k_new_warnings}}) {
        if (const auto value = cell.patch_fact(k, fact); !value.empty()) {
          misc[field] = std::stoi(value);
        }
      }
      build["misc"] = misc;
      m_builds.push_back(build);
    }
  }

  // The build of the cell's target for its series: one per (series, target),
  // a failure wins over a success of another cell.
  std::string add_cell_build(const RunCell& cell) {
    const std::string id = checkout_id(cell.series) + ":" + clean(cell.target());
    const bool built =
        cell.booted || !cell.kernel_fact("candidate", results::KernelFact::k_kernel).empty();
    const bool not_built = !built && cell.status == results::Outcome::k_fail;
    if (!built && !not_built) {
      return m_built_ids.count(id) ? id : "";
    }
    json build = {
        {"id", id},
        {"origin", m_origin},
        {"checkout_id", checkout_id(cell.series)},
        {"config_name", clean(cell.target())},
        {"architecture", architecture(cell)},
        {"status", status_of(built ? results::Outcome::k_pass : results::Outcome::k_fail)}};
    if (const auto seconds = cell.kernel_fact("candidate", results::KernelFact::k_seconds);
        !seconds.empty()) {
      build["duration"] = std::stod(seconds);
    }
    if (const auto compiler = cell.kernel_fact("candidate", results::KernelFact::k_compiler);
        !compiler.empty()) {
      build["compiler"] = clean(compiler);
    }
    if (not_built) {
      build["log_excerpt"] = excerpt(cell.detail.empty() ? cell.summary : cell.detail);
    }
    json misc = json::object();
    if (const auto key = cell.kernel_fact("candidate", results::KernelFact::k_kernel);
        !key.empty()) {
      misc["kernel"] = clean(key);
    }
    if (const auto warnings = cell.kernel_fact("candidate", results::KernelFact::k_warnings);
        !warnings.empty()) {
      misc["warnings"] = std::stoi(warnings);
    }
    build["misc"] = misc;
    if (m_built_ids.count(id)) {
      for (auto& b : m_builds) {
        if (b["id"] == id && not_built) {
          b = build;
        }
      }
    } else {
      m_built_ids.insert(id);
      m_builds.push_back(build);
    }
    return built ? id : "";
  }

  bool expected_failure(const RunCell& cell) const {
    const results::SeriesRecord* series = m_run.find_series(cell.series);
    if (!series) {
      return false;
    }
    return series->verdict &&
           series->verdict->outcome_of(cell.cell, cell.status) == results::Outcome::k_xfail;
  }

  json test(const std::string& build_id, const std::string& id_suffix, const std::string& path,
            const std::string& status) const {
    return {{"id", build_id + ":" + id_suffix},
            {"origin", m_origin},
            {"build_id", build_id},
            {"path", path},
            {"status", status}};
  }

  void add_cell(const RunCell& cell) {
    const std::string build_id = add_cell_build(cell);
    if (build_id.empty()) {
      return;  // skipped before building, or the kernel did not build
    }
    const std::string test_case = cell.test_case();
    const std::string path = "kseries." + path_part(test_case);
    // "memmap-timing", or "memmap-timing-_icount_" for one clock of several.
    const std::string rest = cell.cell.substr(cell.cell.find(test_case) + test_case.size());
    const std::string id = path_part(test_case) + (rest.empty() ? "" : "-" + path_part(trim(rest)));
    json whole = test(build_id, clean(id), path, status_of(cell.status));
    whole["duration"] = cell.seconds;
    whole["comment"] = clean(cell.summary);
    if (!cell.detail.empty()) {
      whole["log_excerpt"] = excerpt(cell.detail);
    }
    whole["misc"] = {{"cell", clean(cell.cell)}, {"expected_failure", expected_failure(cell)}};
    if (!cell.session) {
      m_tests.push_back(whole);
      return;
    }
    const results::SessionRecord& session = *cell.session;
    // The clock the timing was taken with, and the memory clock's machine profile.
    for (const auto& [key, value] :
         {std::pair{"clock", &session.clock}, std::pair{"memory_model", &session.memory_model}}) {
      if (!value->empty()) {
        whole["misc"][key] = clean(*value);
      }
    }
    m_tests.push_back(whole);
    const std::string kernel = cell.subject_kernel();
    add_boots(session, kernel, build_id, clean(id), path);
    add_verdicts(session, kernel, build_id, clean(id), path);
    add_timing(cell, kernel, build_id, clean(id), path);
  }

  // The kernel's boots, each a test that fails on a finding or a problem.
  void add_boots(const results::SessionRecord& session, const std::string& kernel,
                 const std::string& build_id, const std::string& id, const std::string& path) {
    for (const auto& boot : session.boots) {
      if (boot.kernel != kernel) {
        continue;
      }
      const bool bad = !boot.findings.empty() || !boot.problems.empty();
      json t = test(build_id, id + ":boot:" + std::to_string(boot.round), path + ".boot",
                    status_of(bad ? results::Outcome::k_fail : results::Outcome::k_pass));
      t["duration"] = boot.seconds;
      if (!boot.console.empty()) {
        t["log_url"] = file_url(boot.console);
      }
      std::string why;
      for (const auto& finding : boot.findings) {
        why += finding.kind + ": " + finding.title + "\n";
      }
      for (const auto& problem : boot.problems) {
        why += problem + "\n";
      }
      if (!why.empty()) {
        t["log_excerpt"] = excerpt(why);
      }
      t["misc"] = {{"round", boot.round}, {"accel", clean(boot.accel)}, {"qemu", clean(boot.qemu)}};
      m_tests.push_back(t);
    }
  }

  // The oracle's verdicts on the kernel's boots, and on it against the base.
  void add_verdicts(const results::SessionRecord& session, const std::string& kernel,
                    const std::string& build_id, const std::string& id, const std::string& path) {
    for (const auto& verdict : session.oracle) {
      std::string suffix;
      if (verdict.kernel == kernel + " vs base") {
        suffix = ".vs-base";
      } else if (verdict.kernel != kernel) {
        continue;  // the base kernel's own dumps: not this build's result
      }
      const std::string setup = path_part(verdict.setup);
      json t = test(build_id, id + ":" + setup + suffix + ":" + std::to_string(verdict.round),
                    path + "." + setup + suffix, status_of(verdict_outcome(verdict.status)));
      t["comment"] = clean(verdict.summary);
      t["misc"] = {{"round", verdict.round}};
      m_tests.push_back(t);
    }
  }

  // Each timing figure of the kernel: its mean as the test's number; with
  // a baseline beside it, the comparison's verdict as its status.
  void add_timing(const RunCell& cell, const std::string& kernel, const std::string& build_id,
                  const std::string& id, const std::string& path) {
    const auto found = cell.session->kernels.find(kernel);
    if (found == cell.session->kernels.end()) {
      return;
    }
    std::map<std::pair<std::string, std::string>, const results::ComparisonRecord*> compared;
    for (const auto& c : cell.session->comparison) {
      compared[{c.setup, c.metric}] = &c;
    }
    const std::string baseline = cell.baseline_kernel();
    for (const auto& [setup, metrics] : found->second.setups) {
      for (const auto& [metric, samples] : metrics) {
        const auto& summary = samples.summary;
        if (summary.n == 0) {
          continue;  // the boot-time probe: one line, not a distribution
        }
        std::string status = "DONE";
        const double mean = summary.mean.value_or(NAN);
        if (!std::isfinite(mean)) {
          continue;
        }
        json misc = {{"n", summary.n},
                     {"median", summary.median.value_or(mean)},
                     {"stddev", summary.stddev.value_or(0)},
                     {"ci95_of_mean", ends(summary.ci95)}};
        if (const auto it = compared.find({setup, metric}); it != compared.end()) {
          const results::ComparisonRecord& c = *it->second;
          status = c.verdict == "slower" ? "FAIL" : c.verdict == "unknown" ? "DONE" : "PASS";
          misc["baseline"] = clean(baseline);
          misc["verdict"] = clean(c.verdict);
          misc["relative_change"] = or_null(c.relative_change);
          misc["ci95_of_ratio"] = ends(c.ci95);
          misc["p"] = or_null(c.p);
          misc["reason"] = clean(c.reason);
          if (const auto* base = cell.samples(baseline, setup, metric)) {
            misc["baseline_mean"] = or_null(base->summary.mean);
          }
        }
        json t = test(build_id, id + ":" + path_part(setup) + ":" + path_part(metric),
                      path + "." + path_part(setup) + "." + path_part(metric), status);
        t["number"] = {{"value", mean}, {"unit", clean(samples.unit)}};
        t["misc"] = misc;
        m_tests.push_back(t);
      }
    }
  }

  // The coverage stage: per coverage cell a test on that cell's build,
  // its number the changed lines it executed; on the first one's build the
  // revision's share of changed lines executed (%), the stage's verdict.
  void add_coverage(const RunCell& cell) {
    if (!cell.coverage) {
      return;  // no coverage.json: the stage erred before writing one (its log says)
    }
    std::string first_build;
    for (const auto& c : cell.coverage->cells) {
      if (!c.target) {
        continue;
      }
      const std::string id = checkout_id(cell.series) + ":" + clean(*c.target);
      if (!m_built_ids.count(id)) {
        continue;  // its build is not in this report
      }
      first_build = first_build.empty() ? id : first_build;
      const std::string name = clean(c.cell);
      json t = test(id, "coverage:" + path_part(name), "kseries.coverage.cell",
                    c.cover_files > 0 ? "PASS" : "MISS");
      t["number"] = {{"value", c.counts.executed}, {"unit", "lines"}};
      t["comment"] = clean(c.line);
      t["misc"] = {{"cell", name},
                   {"changed", c.counts.changed},
                   {"compiled_not_run", c.counts.compiled_not_run},
                   {"never_compiled", c.counts.never_compiled}};
      m_tests.push_back(t);
    }
    if (first_build.empty()) {
      return;
    }
    const auto& summary = cell.coverage->summary;
    json t = test(first_build, "coverage", "kseries.coverage", status_of(cell.status));
    if (summary.changed > 0) {
      t["number"] = {{"value", 100.0 * summary.executed / summary.changed}, {"unit", "%"}};
    }
    t["duration"] = cell.seconds;
    t["comment"] = clean(cell.summary);
    t["misc"] = {{"cell", cell.cell},
                 {"changed", summary.changed},
                 {"executed", summary.executed},
                 {"compiled_not_run", summary.compiled_not_run},
                 {"never_compiled", summary.never_compiled},
                 {"expected_failure", expected_failure(cell)}};
    m_tests.push_back(t);
  }

  const RunRecord& m_run;
  std::string m_prefix;
  std::string m_origin;
  json m_checkouts = json::array();
  json m_builds = json::array();
  json m_tests = json::array();
  std::set<std::string> m_built_ids;
};

}  // namespace

json render_kcidb(const RunRecord& run, const KcidbOptions& options) {
  return KcidbWriter(run, options).render();
}

std::string patchset_hash(const std::vector<std::string>& patch_sha256) {
  if (patch_sha256.empty()) {
    return "";
  }
  std::string lines;
  for (const auto& hash : patch_sha256) {
    lines += hash + "\n";
  }
  return oracle::sha256_hex(lines);
}

}  // namespace kseries::report
