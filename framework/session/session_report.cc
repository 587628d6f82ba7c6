#include "session/session_report.h"

#include <map>
#include <optional>
#include <sstream>

#include "git/apply.h"
#include "stats/lkp_table.h"
#include "stats/power.h"

namespace kseries::session {

namespace {

std::string fmt(double value) {
  std::ostringstream out;
  out.precision(4);
  out << value;
  return out.str();
}

// Series names hold '/' ("zone-device-memmap/v6"): not in a class name.
std::string file_safe(std::string name) {
  for (char& c : name) {
    if (c == '/' || c == ' ') {
      c = '-';
    }
  }
  return name;
}

results::MetricRecord metric_record(const cases::MetricSamples& samples) {
  const auto summary = stats::summarize(samples.rebinds);
  return {samples.unit,
          samples.first,
          samples.rebinds,
          samples.probe,
          samples.pages,
          {summary.n, summary.mean, summary.median, summary.trimmed_mean, summary.stddev,
           results::IntervalRecord{summary.mean_interval.low, summary.mean_interval.high}}};
}

// Accumulates the three renderings side by side.
struct Sink {
  const SessionFacts& facts;
  std::ostringstream out;
  results::SessionRecord record;  // results.json
  report::TestSuite suite;
  bool failed = false;
};

void add_header(Sink& s, const std::vector<KernelUnderTest>& kernels, int boots) {
  const auto& f = s.facts;
  s.out << "accelerator: " << f.accel_note << "\n";
  s.out << "clock: " << qemu::clock_note(f.clock) << "\n";
  if (f.accel == "tcg") {
    s.out << "note: TCG emulation, not KVM: absolute times are not comparable with the series'"
             " VM numbers; compare ratios\n";
  }
  if (kernels.size() > 1) {
    s.out << "boots interleaved: " << boots << " round(s) of " << kernels.front().name << ", "
          << kernels.back().name << " (A B, B A, ...)\n";
    if (qemu::counts_instructions(f.clock)) {
      s.out << "note: " << qemu::clock_name(f.clock) << ": boots are deterministic, so " << boots
            << " boot(s) a side; the rebinds are the samples, and boots of one kernel whose "
               "means agree within 0.1 % pool their rebinds (materiality 0.25 %)"
            << (f.adaptive ? "; a second pair is booted only when a verdict is unknown" : "")
            << "\n";
    } else if (boots == 1) {
      s.out << "note: one boot per kernel: the rebinds are taken as independent samples, so "
               "boot-to-boot variation is not in the intervals; --boots 4 or more gives a "
               "verdict that must hold across boots\n";
    } else {
      s.out << "note: " << boots << " boots per kernel: intervals resample boots, then rebinds "
            << "within a boot; the p-value compares boot means"
            << (boots < 4 ? " and cannot go below 0.05 with fewer than 4 boots a side, so no "
                            "faster/slower verdict is possible"
                          : "")
            << "\n";
    }
  }
  auto& r = s.record;
  r.target = f.target;
  r.test_case = f.test_case;
  r.accel = f.accel;
  r.accel_note = f.accel_note;
  r.clock = qemu::clock_name(f.clock);
  r.boots_per_kernel = boots;
  r.pmem = f.pmem;
  r.pmem_size = f.pmem_size;
  r.interleaved = kernels.size() > 1;
  r.run_dir = f.run_dir.string();
  s.suite.properties = {{"accel", f.accel},
                        {"clock", qemu::clock_name(f.clock)},
                        {"accel_note", f.accel_note},
                        {"target", f.target},
                        {"case", f.test_case}};
  if (!f.layouts.empty()) {
    std::string joined;
    for (const auto& layout : f.layouts) {
      joined += (joined.empty() ? "" : "; ") + layout;
    }
    s.out << "pmem layouts: " << joined << "\n";
    r.layouts = f.layouts;
    s.suite.properties.emplace_back("layouts", joined);
  }
  if (!f.memory_model.empty()) {
    s.out << "memory model: " << f.memory_model << "\n";
    r.memory_model = f.memory_model;
    s.suite.properties.emplace_back("memory_model", f.memory_model);
  }
}

// One JUnit testcase per (target, case, kernel, setup) from the host oracle.
void add_verdict(Sink& s, const oracle::SetupVerdict& verdict, const std::string& kernel,
                 int round) {
  report::TestCase test;
  test.classname = "oracle." + s.facts.target + "." + s.facts.test_case + "." + file_safe(kernel);
  test.name = verdict.setup + " #" + std::to_string(round);
  test.message = verdict.summary;
  test.detail = verdict.details;
  const std::string status(oracle::verdict_name(verdict.status));
  if (verdict.status == oracle::VerdictStatus::k_fail) {
    s.failed = true;
    test.status = report::CaseStatus::k_failed;
    constexpr std::size_t k_excerpt = 3000;
    s.out << "FAILED oracle " << kernel << " " << verdict.setup << ": " << verdict.summary << "\n"
          << verdict.details.substr(0, k_excerpt)
          << (verdict.details.size() > k_excerpt ? "...\n" : "");
  } else {
    if (verdict.status == oracle::VerdictStatus::k_skip) {
      test.status = report::CaseStatus::k_skipped;
    }
    s.out << "oracle " << kernel << " " << verdict.setup << ": " << status << ": "
          << verdict.summary << "\n";
  }
  s.record.oracle.push_back({kernel, round, verdict.setup, status, verdict.summary});
  s.suite.cases.push_back(std::move(test));
}

// The boot itself: a testcase that fails on any finding or problem.
void add_boot(Sink& s, const BootRecord& record) {
  std::vector<results::FindingRecord> findings;
  for (const auto& finding : record.findings) {
    findings.push_back(
        {guest::to_string(finding.kind), finding.line, finding.title, finding.during});
  }
  s.record.boots.push_back({record.kernel, role_name(record.role), record.round, record.run.accel,
                            record.seconds, record.run.process.describe(), record.powered_off,
                            record.run.console.string(), record.run.protocol.string(),
                            record.run.argv, std::move(findings), record.problems, record.rerun});
  report::TestCase test;
  test.classname = "boot." + s.facts.target + "." + s.facts.test_case;
  test.name = "boot " + record.kernel + " #" + std::to_string(record.round) +
              (record.rerun ? " rerun " + std::to_string(record.rerun) : "");
  test.seconds = record.seconds;
  test.properties = {{"accel", record.run.accel}, {"console", record.run.console.string()}};
  std::string problems;
  for (const auto& finding : record.findings) {
    problems += std::string(guest::to_string(finding.kind)) + ": " + finding.title +
                (finding.during.empty() ? "" : " (during " + finding.during + ")") + "\n";
    test.detail += finding.excerpt + "\n";
  }
  for (const auto& problem : record.problems) {
    problems += problem + "\n";
  }
  if (!problems.empty()) {
    s.failed = true;
    test.status = report::CaseStatus::k_failed;
    test.message = problems.substr(0, problems.find('\n'));
    s.out << "FAILED " << test.name << " (" << record.run.console.string() << ")\n" << problems;
  }
  s.suite.cases.push_back(std::move(test));
}

// Baseline boots whose console findings did not come back when the same
// kernel booted again: named (text, JSON, a skipped JUnit testcase each),
// not judged, and never a failure of the series.
void add_flaky_baseline(Sink& s, const std::vector<BootRecord>& flaky) {
  for (const auto& record : flaky) {
    std::string what;
    std::vector<results::FindingRecord> findings;
    for (const auto& finding : record.findings) {
      what += (what.empty() ? "" : "; ") + std::string(guest::to_string(finding.kind)) + ": " +
              finding.title + (finding.during.empty() ? "" : " (during " + finding.during + ")");
      findings.push_back({guest::to_string(finding.kind), 0, finding.title, ""});
    }
    const std::string message = "flaky on the " + role_name(record.role) + ": " + what +
                                "; not in a rerun of the same kernel: not judged, not the series'";
    s.out << "flaky " << record.kernel << " #" << record.round
          << (record.rerun ? " rerun " + std::to_string(record.rerun) : "") << " ("
          << record.run.console.string() << "): " << message << "\n";
    s.record.flaky_baseline.push_back({record.kernel, role_name(record.role), record.round,
                                       record.rerun, record.run.console.string(),
                                       std::move(findings)});
    report::TestCase test;
    test.classname = "boot." + s.facts.target + "." + s.facts.test_case;
    test.name = "boot " + record.kernel + " #" + std::to_string(record.round) +
                (record.rerun ? " rerun " + std::to_string(record.rerun) : "") + " (flaky)";
    test.seconds = record.seconds;
    test.status = report::CaseStatus::k_skipped;
    test.message = message;
    test.properties = {{"accel", record.run.accel}, {"console", record.run.console.string()}};
    s.suite.cases.push_back(std::move(test));
  }
}

// The guest's own result lines: one testcase each.
void add_results(Sink& s, const BootRecord& record) {
  for (const auto& event : record.events) {
    if (event.verb != "result") {
      continue;
    }
    report::TestCase result;
    result.classname = "case." + s.facts.target + "." + s.facts.test_case + "." + record.kernel;
    result.name = event.get("subject") + " #" + std::to_string(record.round);
    const std::string status = event.get("status");
    // Only "pass" and "skip" are not failures: "FAIL", "error" or nothing
    // is a broken guest, never a pass.
    if (status != "pass" && status != "skip") {
      s.failed = true;
      result.status = report::CaseStatus::k_failed;
      s.out << "FAILED " << record.kernel << " " << event.get("subject") << ": "
            << event.get("reason") << "\n";
    } else {
      if (status == "skip") {
        result.status = report::CaseStatus::k_skipped;
      }
      s.out << status << " " << record.kernel << " #" << record.round << " " << event.get("subject")
            << ": " << event.get("reason") << "\n";
    }
    result.message = event.get("reason");
    s.suite.cases.push_back(std::move(result));
  }
}

// The memory clock's figures behind memmap_init_mns: per setup, the rebinds'
// summed instructions and DRAM bytes (results.json "memory_traffic", which
// ci/calibrate-memory reads) and their means per rebind in the text.
void add_traffic(Sink& s, const KernelUnderTest& k) {
  if (k.traffic.empty() || !s.facts.memory_profile) {
    return;
  }
  s.out << cases::render_traffic_table(k.name, k.traffic, *s.facts.memory_profile);
  auto& traffic = s.record.kernels[k.name].memory_traffic;
  for (const auto& [setup, t] : k.traffic) {
    traffic[setup] = {t.rebinds, t.windows, t.insns, t.dram_read, t.dram_write, t.nt_stores};
  }
}

void add_kernel_tables(Sink& s, const std::vector<KernelUnderTest>& kernels) {
  for (const auto& k : kernels) {
    // Cases judged by an oracle mostly measure counts and sizes: a table only
    // for the timings they have.
    if (!s.facts.oracle || !k.timing.empty()) {
      s.out << cases::render_summary_table(k.name + " (" + k.build.key.substr(0, 12) + ")",
                                           k.timing);
    } else {
      s.out << "kernel " << k.name << " (" << k.build.key.substr(0, 12) << ")\n";
    }
    for (const auto& [setup, share] : cases::memmap_share_of_bind(k.timing)) {
      s.out << "  " << setup << ": memmap_init_zone_device() is " << fmt(share * 100)
            << "% of the whole bind (ftrace ns / user-space bind ns)\n";
    }
    results::KernelRecord record;
    record.role = role_name(k.role);
    record.commit = git::to_hex(k.commit);
    record.kernel = k.build.key;
    record.bz_image = k.build.image.string();
    record.boots = k.boots;
    for (const auto& [key, samples] : k.timing) {
      record.setups[key.first][key.second] = metric_record(samples);
    }
    s.record.kernels[k.name] = std::move(record);
    add_traffic(s, k);
    if (kernels.size() != 1) {
      continue;
    }
    for (const auto& [key, samples] : k.timing) {
      const auto summary = stats::summarize(samples.rebinds);
      s.suite.cases.push_back({"timing." + s.facts.target + "." + k.name,
                               key.first + " " + key.second,
                               0,
                               report::CaseStatus::k_passed,
                               "",
                               "",
                               {{"n", std::to_string(summary.n)},
                                {"mean", fmt(summary.mean)},
                                {"ci95", "[" + fmt(summary.mean_interval.low) + ", " +
                                             fmt(summary.mean_interval.high) + "]"},
                                {"unit", samples.unit}},
                               ""});
    }
  }
}

// A time measured on one kernel and not on the other cannot be compared:
// that fails (a series that renames or inlines what is timed must not pass
// by leaving nothing to compare).
void add_one_sided(Sink& s, const KernelUnderTest& has, const KernelUnderTest& lacks) {
  for (const auto& [key, samples] : has.timing) {
    // Times only: a count (fastpath_calls) exists only on kernels that have
    // what it counts.
    const bool time =
        samples.unit == "ns" || samples.unit == "ms" || cases::is_virtual_unit(samples.unit);
    if (!time || samples.rebinds.empty() || lacks.timing.count(key)) {
      continue;
    }
    const std::string why = key.second + " of " + key.first + " measured on " + has.name +
                            " and not on " + lacks.name + ": nothing to compare";
    s.out << "FAIL " << why << "\n";
    s.failed = true;
    report::TestCase test;
    test.classname = "compare." + s.facts.target + "." + s.facts.test_case;
    test.name = key.first + " " + key.second;
    test.status = report::CaseStatus::k_failed;
    test.message = why;
    s.suite.cases.push_back(std::move(test));
  }
}

// The timings of memmap_init_zone_device() itself (the window of the cases'
// `path:`), at a resolution that can tell a changed path from the base's:
// not the pr_debug line's milliseconds.
bool times_the_path(const std::string& metric) {
  return metric == "memmap_init_ns" || metric == "memmap_init_vns" || metric == "memmap_init_mns";
}

// A series that changes the code the window runs, yet does the base's work
// there: its code is not in the kernel, or never taken (issue 45: a kernel
// built from other sources timed "same" on all four setups). A finding.
std::optional<std::string> suspicious_same(const Sink& s, const KernelUnderTest& candidate,
                                           const std::string& metric,
                                           const stats::Comparison& comparison) {
  if (comparison.verdict != stats::Verdict::k_same || candidate.role != KernelRole::k_candidate ||
      !s.facts.new_path.expected() || !times_the_path(metric)) {
    return std::nullopt;
  }
  return "same as the base (" + comparison.reason + "), though the series changes " +
         s.facts.new_path.files() +
         ", the code this window runs: the series' changes did not change the measured work: "
         "is its code in the kernel?";
}

void add_comparison(Sink& s, const KernelUnderTest& a, const KernelUnderTest& b) {
  std::vector<stats::LkpRow> rows;
  for (const auto& [key, samples] : a.timing) {
    auto other = b.timing.find(key);
    if (other == b.timing.end() || samples.rebinds.empty()) {
      continue;
    }
    // Boots: a two-stage bootstrap; a noisy metric's one boot a side
    // allows for what boots differ by.
    const auto options = cases::compare_options_for(key.second, samples, other->second);
    const auto comparison = stats::compare(samples.rebinds, other->second.rebinds, options);
    rows.push_back({key.second + "." + key.first, comparison});
    const std::string verdict(stats::verdict_name(comparison.verdict));
    s.record.comparison.push_back(
        {key.first, key.second, samples.unit, comparison.ratio, comparison.relative_change,
         comparison.rank_test.p,
         results::IntervalRecord{comparison.ratio_interval.low, comparison.ratio_interval.high},
         verdict, comparison.reason});
    report::TestCase test;
    test.classname = "compare." + s.facts.target + "." + s.facts.test_case;
    test.name = key.first + " " + key.second + " " + b.name + " vs " + a.name;
    test.properties = {{"n_base", std::to_string(comparison.base.n)},
                       {"n_series", std::to_string(comparison.candidate.n)},
                       {"mean_base", fmt(comparison.base.mean)},
                       {"mean_series", fmt(comparison.candidate.mean)},
                       {"unit", samples.unit},
                       {"change", fmt(comparison.relative_change * 100) + "%"},
                       {"ci95_ratio", "[" + fmt(comparison.ratio_interval.low) + ", " +
                                          fmt(comparison.ratio_interval.high) + "]"},
                       {"p", fmt(comparison.rank_test.p)},
                       {"verdict", verdict}};
    // Under the memory clock the modelled time decides; the instruction
    // figures beside it are evidence (more instructions that save DRAM
    // traffic are the point of a non-temporal copy), not a verdict.
    const bool evidence_only =
        s.facts.clock == qemu::Clock::k_memory && (samples.unit == "vns" || samples.unit == "vms");
    const auto suspicious = suspicious_same(s, b, key.second, comparison);
    if (comparison.verdict == stats::Verdict::k_slower && !evidence_only) {
      s.failed = true;
      test.status = report::CaseStatus::k_failed;
      test.message = "slower: " + comparison.reason;
    } else if (suspicious && !evidence_only) {
      s.failed = true;
      test.status = report::CaseStatus::k_failed;
      test.message = *suspicious;
      s.out << "FAIL " << key.second << " " << key.first << ": " << *suspicious << "\n";
    } else if (evidence_only) {
      test.properties.emplace_back("evidence",
                                   "instructions under the memory clock: reported, "
                                   "the modelled time (mns) decides");
    }
    s.suite.cases.push_back(std::move(test));
  }
  if (!rows.empty()) {
    s.out << stats::render_lkp_table(a.name, b.name, rows);
  }
  add_one_sided(s, a, b);
  add_one_sided(s, b, a);
}

// A/A: how small a slowdown would the same setting have detected?
void add_power(Sink& s, const KernelUnderTest& a, const KernelUnderTest& b) {
  for (const auto& [key, samples] : a.timing) {
    auto other = b.timing.find(key);
    if (other == b.timing.end() || samples.rebinds.size() < 2) {
      continue;
    }
    std::vector<double> pooled = samples.rebinds;
    pooled.insert(pooled.end(), other->second.rebinds.begin(), other->second.rebinds.end());
    stats::PowerOptions power;
    power.samples_per_side = samples.rebinds.size();
    power.compare = cases::compare_options_for(samples.unit);
    power.compare.bootstrap.resamples = 1000;
    power.quantum = samples.unit == "ms" || samples.unit == "vms" ? 1 : 0;
    if (samples.unit == "vns" || samples.unit == "mns") {
      // The instruction clock resolves hundredths of a percent: search
      // below the wall clock's 1 % floor.
      power.min_effect = 0.0005;
      power.max_effect = 0.05;
      power.tolerance = 0.0001;
    }
    const auto estimate = stats::estimate_power(pooled, power);
    s.out << "power " << key.first << " " << key.second << ": " << estimate.summary
          << " (rebinds pooled as independent samples: optimistic when boots differ)\n";
    s.record.power.push_back({key.first, key.second, samples.unit,
                              estimate.detectable_change.value_or(-1), estimate.summary});
  }
}

// A guest's "pass" for a setup is only "the evidence was collected": when
// every verdict the oracle gave on that setup of that kernel is "not
// applicable" (the base's one path, a series whose new path is not there
// by contract), the setup is not applicable too, and a session where that
// holds for every setup is one (the gate's cell: skip), never a pass.
void settle_result_rows(Sink& s) {
  if (!s.facts.oracle) {
    return;
  }
  // (kernel, setup #round) -> whether any verdict on it was not a skip.
  std::map<std::pair<std::string, std::string>, bool> judged;
  const std::string oracle_prefix = "oracle." + s.facts.target + "." + s.facts.test_case + ".";
  for (const auto& test : s.suite.cases) {
    if (test.classname.rfind(oracle_prefix, 0) != 0) {
      continue;
    }
    std::string kernel = test.classname.substr(oracle_prefix.size());
    if (kernel.size() > 8 && kernel.ends_with("-vs-base")) {
      kernel.resize(kernel.size() - 8);
    }
    auto& any = judged[{kernel, test.name}];
    any = any || test.status != report::CaseStatus::k_skipped;
  }
  const std::string case_prefix = "case." + s.facts.target + "." + s.facts.test_case + ".";
  for (auto& test : s.suite.cases) {
    if (test.classname.rfind(case_prefix, 0) != 0 || test.status != report::CaseStatus::k_passed) {
      continue;
    }
    const auto found =
        judged.find({file_safe(test.classname.substr(case_prefix.size())), test.name});
    if (found != judged.end() && !found->second) {
      test.status = report::CaseStatus::k_skipped;
      test.message = "not applicable (every verdict of the oracle on it): " + test.message;
    }
  }
}

}  // namespace

void add_skipped_setups(const SessionFacts& facts, std::string& text, report::TestSuite& suite) {
  for (const auto& [setup, why] : facts.skipped_setups) {
    text += "skipped setup " + setup + " on " + facts.target + ": " + why + "\n";
    suite.cases.push_back({"boot." + facts.target + "." + facts.test_case,
                           setup,
                           0,
                           report::CaseStatus::k_skipped,
                           why,
                           "",
                           {},
                           ""});
  }
}

SessionReport render_session(const SessionFacts& facts, const std::vector<KernelUnderTest>& kernels,
                             const SessionResult& result, Status& status) {
  Sink s{facts, {}, {}, {}, false};
  add_header(s, kernels, result.boots);
  std::string skipped;
  add_skipped_setups(facts, skipped, s.suite);
  s.out << skipped;
  add_flaky_baseline(s, result.flaky_baseline);
  for (const auto& record : result.records) {
    add_boot(s, record);
    add_results(s, record);
    for (const auto& verdict : record.verdicts) {
      add_verdict(s, verdict, record.kernel, record.round);
    }
  }
  if (facts.oracle) {
    for (const auto& pair : judge_pairs(*facts.oracle, result.records)) {
      const std::string label = pair.candidate->kernel + " vs base";
      status.progress("oracle " + label + " " + pair.verdict.setup + ": " +
                      std::string(oracle::verdict_name(pair.verdict.status)) + ": " +
                      pair.verdict.summary);
      add_verdict(s, pair.verdict, label, pair.candidate->round);
    }
  }
  settle_result_rows(s);
  add_kernel_tables(s, kernels);
  if (kernels.size() == 2) {
    add_comparison(s, kernels[0], kernels[1]);
    if (kernels[1].role == KernelRole::k_control) {
      add_power(s, kernels[0], kernels[1]);
    }
  }
  s.out << "run directory " << facts.run_dir.string() << "\n";
  s.record.failed = s.failed;  // the session's verdict, for renderers reading the file
  return {s.out.str(), std::move(s.record), std::move(s.suite), s.failed};
}

}  // namespace kseries::session
