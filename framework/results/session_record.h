#pragma once
// A session's results as results.json keeps them (a gate cell's
// cells/*/results.json, a boot's run directory): what the session writer
// (session/session_report.cc) records and the renderers (report/) read, as
// one type. to_json() and session_record_from() below are the one writer
// and the one reader of the file's keys, so a key is spelled once.

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kseries::results {

// Two ends of a 95 % interval; a NaN end is written as null and read back
// as NaN.
struct IntervalRecord {
  double low = 0;
  double high = 0;
  bool operator==(const IntervalRecord&) const = default;
};

// A sample's figures (stats::Summary as the file keeps them). A figure that
// is absent or not a number (the file writes a NaN as null) is nullopt.
struct SummaryRecord {
  std::size_t n = 0;  // 0 when absent, negative or beyond 1e9
  std::optional<double> mean, median, trimmed_mean, stddev;
  std::optional<IntervalRecord> ci95;  // of the mean
  bool operator==(const SummaryRecord&) const = default;
};

// One kernel's samples of one metric on one setup.
struct MetricRecord {
  std::string unit;             // "ns", "vns", "count", ...
  std::vector<double> first;    // the first bind of each boot
  std::vector<double> rebinds;  // every rebind of every boot (what is compared)
  std::vector<double> probe;    // the boot-time probe
  double pages = 0;             // pages per bind, as the kernel printed it
  SummaryRecord summary;        // of the rebinds
  bool operator==(const MetricRecord&) const = default;
};

// The memory clock's sums over one setup's rebinds.
struct TrafficRecord {
  std::uint64_t rebinds = 0, windows = 0, insns = 0;
  std::uint64_t dram_read = 0, dram_write = 0, nt_stores = 0;
  bool operator==(const TrafficRecord&) const = default;
};

// A kernel of the session, by its name in the session.
struct KernelRecord {
  std::string role;    // "base", "candidate", "control", "reference" ("" in older files)
  std::string commit;  // hex
  std::string kernel;  // the build's key
  std::string bz_image;
  int boots = 0;
  // setup -> metric -> samples.
  std::map<std::string, std::map<std::string, MetricRecord>> setups;
  std::map<std::string, TrafficRecord> memory_traffic;  // per setup; empty without the memory clock
  bool operator==(const KernelRecord&) const = default;
};

// What the console triage found in a boot (guest/triage.h).
struct FindingRecord {
  std::string kind;
  int line = 0;
  std::string title;
  std::string during;
  bool operator==(const FindingRecord&) const = default;
};

struct BootRecord {
  std::string kernel;
  std::string role;
  int round = 0;
  std::string accel;
  double seconds = 0;  // 0 when absent or null
  std::string qemu;    // how QEMU ended ("exit 0")
  bool powered_off = false;
  std::string console;  // log paths ("" when none)
  std::string protocol;
  std::vector<std::string> argv;
  std::vector<FindingRecord> findings;
  std::vector<std::string> problems;  // a value that is not text is kept as its JSON
  int rerun = 0;  // a baseline booted again after a console finding (0: the first boot)
  bool operator==(const BootRecord&) const = default;
};

// A baseline boot whose console findings did not come back when the same
// kernel booted again: named, not judged (session/boot_session.h).
struct FlakyBootRecord {
  std::string kernel;
  std::string role;
  int round = 0;
  int rerun = 0;
  std::string console;
  std::vector<FindingRecord> findings;  // their kind and title only
  bool operator==(const FlakyBootRecord&) const = default;
};

// An oracle verdict on one setup of one boot; KERNEL is "NAME vs base" for
// a verdict on a pair.
struct OracleRecord {
  std::string kernel;
  int round = 0;
  std::string setup;
  std::string status;  // oracle::verdict_name: pass, fail, skip
  std::string summary;
  bool operator==(const OracleRecord&) const = default;
};

// The candidate (second kernel) against the baseline on one (setup, metric).
struct ComparisonRecord {
  std::string setup;
  std::string metric;
  std::string unit;
  std::optional<double> ratio, relative_change, p;
  std::optional<IntervalRecord> ci95;  // of the ratio
  std::string verdict = "unknown";     // stats::verdict_name; "unknown" when absent
  std::string reason;
  bool operator==(const ComparisonRecord&) const = default;
};

// A/A sessions: the smallest change the setting would have detected.
struct PowerRecord {
  std::string setup;
  std::string metric;
  std::string unit;
  double detectable_change = -1;  // -1: none in the searched range
  std::string summary;
  bool operator==(const PowerRecord&) const = default;
};

struct SessionRecord {
  std::string target;
  std::string test_case;
  // Set for a session that booted nothing (every setup asked for is one the
  // target cannot do): the file then holds target, case and this alone.
  std::optional<std::string> skipped;
  std::string accel;
  std::string accel_note;
  std::string clock;  // qemu::clock_name
  int boots_per_kernel = 0;
  std::string pmem;
  std::string pmem_size;
  bool interleaved = false;
  std::string run_dir;
  std::vector<std::string> layouts;  // the pmem namespaces' (qemu/pmem_layout.h)
  std::string memory_model;          // the memory clock's profile, described ("" otherwise)
  std::vector<OracleRecord> oracle;
  std::vector<BootRecord> boots;
  std::vector<FlakyBootRecord> flaky_baseline;
  std::map<std::string, KernelRecord> kernels;  // by name
  std::vector<ComparisonRecord> comparison;
  std::vector<PowerRecord> power;
  bool failed = false;  // the session's verdict
  bool operator==(const SessionRecord&) const = default;
};

nlohmann::json to_json(const SessionRecord& record);

// JSON read back: what is absent (or null) takes the field's default; a
// value of the wrong type throws Error(k_usage) naming where it is
// ("kernels.base.setups: an object expected, not array"). Never another
// exception.
SessionRecord session_record_from(const nlohmann::json& json);

// FILE, a results.json: nullopt when there is none or it is not JSON (a
// cell cut off while writing it); Error(k_usage) "FILE LABEL: a value of
// the wrong type: ..." when it is JSON but not a session, or too large.
std::optional<SessionRecord> read_session_file(const std::filesystem::path& file,
                                               const std::string& label = "");

// A boot's results.json: its one session (clock ""), or one per clock
// (`--clock both`: {"icount": {...}, "wall": {...}}). Error(k_usage) naming
// FILE when it is not a JSON object or holds a value of the wrong type.
std::vector<std::pair<std::string, SessionRecord>> read_boot_results(
    const std::filesystem::path& file);

}  // namespace kseries::results
