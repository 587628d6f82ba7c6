#include "results/session_record.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/json_text.h"
#include "results/json_fields.h"
#include "sys/files.h"

namespace kseries::results {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Every key of results.json, spelled once for its writer and its reader.
namespace key {
constexpr const char* k_target = "target";
constexpr const char* k_case = "case";
constexpr const char* k_skipped = "skipped";
constexpr const char* k_accel = "accel";
constexpr const char* k_accel_note = "accel_note";
constexpr const char* k_clock = "clock";
constexpr const char* k_boots_per_kernel = "boots_per_kernel";
constexpr const char* k_pmem = "pmem";
constexpr const char* k_pmem_size = "pmem_size";
constexpr const char* k_interleaved = "interleaved";
constexpr const char* k_run_dir = "run_dir";
constexpr const char* k_layouts = "layouts";
constexpr const char* k_memory_model = "memory_model";
constexpr const char* k_oracle = "oracle";
constexpr const char* k_boots = "boots";
constexpr const char* k_kernels = "kernels";
constexpr const char* k_comparison = "comparison";
constexpr const char* k_power = "power";
constexpr const char* k_failed = "failed";
// A kernel.
constexpr const char* k_role = "role";
constexpr const char* k_commit = "commit";
constexpr const char* k_kernel = "kernel";
constexpr const char* k_bz_image = "bzImage";
constexpr const char* k_setups = "setups";
constexpr const char* k_memory_traffic = "memory_traffic";
// Samples and their summary.
constexpr const char* k_unit = "unit";
constexpr const char* k_first = "first";
constexpr const char* k_rebinds = "rebinds";
constexpr const char* k_probe = "probe";
constexpr const char* k_pages = "pages";
constexpr const char* k_summary = "summary";
constexpr const char* k_n = "n";
constexpr const char* k_mean = "mean";
constexpr const char* k_median = "median";
constexpr const char* k_trimmed_mean = "trimmed_mean";
constexpr const char* k_stddev = "stddev";
constexpr const char* k_ci95 = "ci95";
// Memory traffic.
constexpr const char* k_windows = "windows";
constexpr const char* k_insns = "insns";
constexpr const char* k_dram_read = "dram_read";
constexpr const char* k_dram_write = "dram_write";
constexpr const char* k_nt_stores = "nt_stores";
// A boot.
constexpr const char* k_round = "round";
constexpr const char* k_seconds = "seconds";
constexpr const char* k_qemu = "qemu";
constexpr const char* k_powered_off = "powered_off";
constexpr const char* k_console = "console";
constexpr const char* k_protocol = "protocol";
constexpr const char* k_argv = "argv";
constexpr const char* k_findings = "findings";
constexpr const char* k_problems = "problems";
constexpr const char* k_rerun = "rerun";
constexpr const char* k_flaky_baseline = "flaky_baseline";
constexpr const char* k_kind = "kind";
constexpr const char* k_line = "line";
constexpr const char* k_title = "title";
constexpr const char* k_during = "during";
// An oracle verdict, a comparison, a power estimate.
constexpr const char* k_setup = "setup";
constexpr const char* k_status = "status";
constexpr const char* k_metric = "metric";
constexpr const char* k_ratio = "ratio";
constexpr const char* k_relative_change = "relative_change";
constexpr const char* k_p = "p";
constexpr const char* k_verdict = "verdict";
constexpr const char* k_reason = "reason";
constexpr const char* k_detectable_change = "detectable_change";
}  // namespace key

// ---- writing ----

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(); }

json interval_json(const std::optional<IntervalRecord>& interval) {
  return interval ? json::array({interval->low, interval->high}) : json();
}

json metric_json(const MetricRecord& m) {
  const auto& s = m.summary;
  return {{key::k_unit, m.unit},
          {key::k_first, m.first},
          {key::k_rebinds, m.rebinds},
          {key::k_probe, m.probe},
          {key::k_pages, m.pages},
          {key::k_summary,
           {{key::k_n, s.n},
            {key::k_mean, optional_json(s.mean)},
            {key::k_median, optional_json(s.median)},
            {key::k_trimmed_mean, optional_json(s.trimmed_mean)},
            {key::k_stddev, optional_json(s.stddev)},
            {key::k_ci95, interval_json(s.ci95)}}}};
}

json kernel_json(const KernelRecord& k) {
  json setups;  // null when the kernel has no timing, as it always was
  for (const auto& [setup, metrics] : k.setups) {
    for (const auto& [metric, samples] : metrics) {
      setups[setup][metric] = metric_json(samples);
    }
  }
  json out = {{key::k_role, k.role},         {key::k_commit, k.commit}, {key::k_kernel, k.kernel},
              {key::k_bz_image, k.bz_image}, {key::k_boots, k.boots},   {key::k_setups, setups}};
  for (const auto& [setup, t] : k.memory_traffic) {
    out[key::k_memory_traffic][setup] = {
        {key::k_rebinds, t.rebinds},       {key::k_windows, t.windows},
        {key::k_insns, t.insns},           {key::k_dram_read, t.dram_read},
        {key::k_dram_write, t.dram_write}, {key::k_nt_stores, t.nt_stores}};
  }
  return out;
}

json boot_json(const BootRecord& b) {
  json findings = json::array();
  for (const auto& f : b.findings) {
    findings.push_back({{key::k_kind, f.kind},
                        {key::k_line, f.line},
                        {key::k_title, f.title},
                        {key::k_during, f.during}});
  }
  json out = {{key::k_kernel, b.kernel},
              {key::k_role, b.role},
              {key::k_round, b.round},
              {key::k_accel, b.accel},
              {key::k_seconds, b.seconds},
              {key::k_qemu, b.qemu},
              {key::k_powered_off, b.powered_off},
              {key::k_console, b.console},
              {key::k_protocol, b.protocol},
              {key::k_argv, b.argv},
              {key::k_findings, findings},
              {key::k_problems, b.problems}};
  if (b.rerun) {
    out[key::k_rerun] = b.rerun;  // a first boot has none
  }
  return out;
}

json flaky_json(const FlakyBootRecord& b) {
  json findings = json::array();
  for (const auto& f : b.findings) {
    findings.push_back({{key::k_kind, f.kind}, {key::k_title, f.title}});
  }
  return {{key::k_kernel, b.kernel}, {key::k_role, b.role},       {key::k_round, b.round},
          {key::k_rerun, b.rerun},   {key::k_console, b.console}, {key::k_findings, findings}};
}

json comparison_json(const ComparisonRecord& c) {
  return {{key::k_setup, c.setup},
          {key::k_metric, c.metric},
          {key::k_unit, c.unit},
          {key::k_ratio, optional_json(c.ratio)},
          {key::k_relative_change, optional_json(c.relative_change)},
          {key::k_ci95, interval_json(c.ci95)},
          {key::k_p, optional_json(c.p)},
          {key::k_verdict, c.verdict},
          {key::k_reason, c.reason}};
}

// The lists a session has only when it has any: no key for none.
void add_lists(const SessionRecord& r, json& out) {
  for (const auto& v : r.oracle) {
    out[key::k_oracle].push_back({{key::k_kernel, v.kernel},
                                  {key::k_round, v.round},
                                  {key::k_setup, v.setup},
                                  {key::k_status, v.status},
                                  {key::k_summary, v.summary}});
  }
  for (const auto& b : r.boots) {
    out[key::k_boots].push_back(boot_json(b));
  }
  for (const auto& b : r.flaky_baseline) {
    out[key::k_flaky_baseline].push_back(flaky_json(b));
  }
  for (const auto& [name, kernel] : r.kernels) {
    out[key::k_kernels][name] = kernel_json(kernel);
  }
  for (const auto& c : r.comparison) {
    out[key::k_comparison].push_back(comparison_json(c));
  }
  for (const auto& p : r.power) {
    out[key::k_power].push_back({{key::k_setup, p.setup},
                                 {key::k_metric, p.metric},
                                 {key::k_unit, p.unit},
                                 {key::k_detectable_change, p.detectable_change},
                                 {key::k_summary, p.summary}});
  }
}

// ---- reading ----

// [low, high]; nullopt for a list of another length.
std::optional<IntervalRecord> interval(const Fields& f, const char* key) {
  const auto ends = f.array(key);
  if (!ends || ends->size() != 2) {
    return std::nullopt;
  }
  IntervalRecord out;
  for (std::size_t i = 0; i < 2; ++i) {
    const json& v = (*ends)[i];
    if (!v.is_null() && !v.is_number()) {
      wrong_type(indexed(f.where(key), i), "a number", v);
    }
    (i == 0 ? out.low : out.high) = v.is_number() ? v.get<double>() : NAN;
  }
  return out;
}

MetricRecord metric_from(const Fields& f) {
  MetricRecord m;
  m.unit = f.text(key::k_unit);
  m.first = numbers(f, key::k_first);
  m.rebinds = numbers(f, key::k_rebinds);
  m.probe = numbers(f, key::k_probe);
  m.pages = f.number(key::k_pages).value_or(0);
  if (const json* summary = f.object(key::k_summary)) {
    const Fields s(*summary, f.where(key::k_summary));
    m.summary.n = static_cast<std::size_t>(s.bounded(key::k_n, 0, 1e9));
    m.summary.n = m.summary.n >= 1000000000 ? 0 : m.summary.n;
    m.summary.mean = s.number(key::k_mean);
    m.summary.median = s.number(key::k_median);
    m.summary.trimmed_mean = s.number(key::k_trimmed_mean);
    m.summary.stddev = s.number(key::k_stddev);
    m.summary.ci95 = interval(s, key::k_ci95);
  }
  return m;
}

TrafficRecord traffic_from(const Fields& f) {
  return {f.count(key::k_rebinds),   f.count(key::k_windows),    f.count(key::k_insns),
          f.count(key::k_dram_read), f.count(key::k_dram_write), f.count(key::k_nt_stores)};
}

KernelRecord kernel_from(const Fields& f) {
  KernelRecord k;
  k.role = f.text(key::k_role);
  k.commit = f.text(key::k_commit);
  k.kernel = f.text(key::k_kernel);
  k.bz_image = f.text(key::k_bz_image);
  k.boots = f.integer(key::k_boots);
  k.setups = members<std::map<std::string, MetricRecord>>(
      f, key::k_setups,
      [](const Fields& setup) { return members<MetricRecord>(setup, metric_from); });
  k.memory_traffic = members<TrafficRecord>(f, key::k_memory_traffic, traffic_from);
  return k;
}

FindingRecord finding_from(const Fields& x) {
  return {x.text(key::k_kind), x.integer(key::k_line), x.text(key::k_title), x.text(key::k_during)};
}

BootRecord boot_from(const Fields& f) {
  BootRecord b;
  b.kernel = f.text(key::k_kernel);
  b.role = f.text(key::k_role);
  b.round = f.integer(key::k_round);
  b.accel = f.text(key::k_accel);
  b.seconds = f.number(key::k_seconds).value_or(0);
  b.qemu = f.text(key::k_qemu);
  b.powered_off = f.flag(key::k_powered_off);
  b.console = f.text(key::k_console);
  b.protocol = f.text(key::k_protocol);
  b.argv = texts(f, key::k_argv);
  b.findings = each<FindingRecord>(f, key::k_findings, finding_from);
  b.problems = texts(f, key::k_problems, true);
  b.rerun = f.integer(key::k_rerun);
  return b;
}

FlakyBootRecord flaky_from(const Fields& f) {
  return {f.text(key::k_kernel),   f.text(key::k_role),
          f.integer(key::k_round), f.integer(key::k_rerun),
          f.text(key::k_console),  each<FindingRecord>(f, key::k_findings, finding_from)};
}

ComparisonRecord comparison_from(const Fields& f) {
  ComparisonRecord c;
  c.setup = f.text(key::k_setup);
  c.metric = f.text(key::k_metric);
  c.unit = f.text(key::k_unit);
  c.ratio = f.number(key::k_ratio);
  c.relative_change = f.number(key::k_relative_change);
  c.ci95 = interval(f, key::k_ci95);
  c.p = f.number(key::k_p);
  c.verdict = f.text(key::k_verdict, "unknown");
  c.reason = f.text(key::k_reason);
  return c;
}

void lists_from(const Fields& f, SessionRecord& r) {
  r.oracle = each<OracleRecord>(f, key::k_oracle, [](const Fields& v) {
    return OracleRecord{v.text(key::k_kernel), v.integer(key::k_round), v.text(key::k_setup),
                        v.text(key::k_status), v.text(key::k_summary)};
  });
  r.boots = each<BootRecord>(f, key::k_boots, boot_from);
  r.flaky_baseline = each<FlakyBootRecord>(f, key::k_flaky_baseline, flaky_from);
  r.kernels = members<KernelRecord>(f, key::k_kernels, kernel_from);
  r.comparison = each<ComparisonRecord>(f, key::k_comparison, comparison_from);
  r.power = each<PowerRecord>(f, key::k_power, [](const Fields& p) {
    return PowerRecord{p.text(key::k_setup), p.text(key::k_metric), p.text(key::k_unit),
                       p.number(key::k_detectable_change).value_or(-1), p.text(key::k_summary)};
  });
}

}  // namespace

json to_json(const SessionRecord& r) {
  if (r.skipped) {
    return {{key::k_target, r.target}, {key::k_case, r.test_case}, {key::k_skipped, *r.skipped}};
  }
  json out = {{key::k_target, r.target},
              {key::k_case, r.test_case},
              {key::k_accel, r.accel},
              {key::k_accel_note, r.accel_note},
              {key::k_clock, r.clock},
              {key::k_boots_per_kernel, r.boots_per_kernel},
              {key::k_pmem, r.pmem},
              {key::k_pmem_size, r.pmem_size},
              {key::k_interleaved, r.interleaved},
              {key::k_run_dir, r.run_dir},
              {key::k_failed, r.failed}};
  if (!r.layouts.empty()) {
    out[key::k_layouts] = r.layouts;
  }
  if (!r.memory_model.empty()) {
    out[key::k_memory_model] = r.memory_model;
  }
  add_lists(r, out);
  return out;
}

SessionRecord session_record_from(const json& json) {
  const Fields f(json, "");
  SessionRecord r;
  r.target = f.text(key::k_target);
  r.test_case = f.text(key::k_case);
  if (f.get(key::k_skipped)) {
    r.skipped = f.text(key::k_skipped);
  }
  r.accel = f.text(key::k_accel);
  r.accel_note = f.text(key::k_accel_note);
  r.clock = f.text(key::k_clock);
  r.boots_per_kernel = f.integer(key::k_boots_per_kernel);
  r.pmem = f.text(key::k_pmem);
  r.pmem_size = f.text(key::k_pmem_size);
  r.interleaved = f.flag(key::k_interleaved);
  r.run_dir = f.text(key::k_run_dir);
  r.layouts = texts(f, key::k_layouts);
  r.memory_model = f.text(key::k_memory_model);
  lists_from(f, r);
  r.failed = f.flag(key::k_failed);
  return r;
}

namespace {

// A session's results.json is a few hundred KB; a file of 64 MiB is not
// one, and is refused before it is parsed.
constexpr std::size_t k_max_session_bytes = std::size_t{64} << 20;

SessionRecord parse_naming(const fs::path& file, const std::string& label, const json& json) {
  try {
    return session_record_from(json);
  } catch (const Error& e) {
    throw usage_error(file.string() + label + ": a value of the wrong type: " + e.what());
  }
}

}  // namespace

std::optional<SessionRecord> read_session_file(const fs::path& file, const std::string& label) {
  std::error_code ec;
  if (file.empty() || !fs::is_regular_file(file, ec)) {
    return std::nullopt;
  }
  const json parsed = parse_json_text(read_file(file, k_max_session_bytes));
  if (parsed.is_discarded()) {
    return std::nullopt;
  }
  return parse_naming(file, label, parsed);
}

std::vector<std::pair<std::string, SessionRecord>> read_boot_results(const fs::path& file) {
  const json parsed = parse_json_text(read_file(file, k_max_session_bytes));
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw usage_error(file.string() + ": not a JSON object");
  }
  std::vector<std::pair<std::string, SessionRecord>> out;
  if (parsed.contains(key::k_case)) {
    out.emplace_back("", parse_naming(file, "", parsed));
    return out;
  }
  // --clock both: one session per clock, each in its own directory.
  for (const auto& [clock, session] : parsed.items()) {
    if (session.is_object()) {
      out.emplace_back(clock, parse_naming(file, " (clock " + clock + ")", session));
    }
  }
  return out;
}

}  // namespace kseries::results
