#include "session/boot_session.h"

#include <algorithm>
#include <filesystem>

#include "core/utf8.h"
#include "guest/case_status.h"
#include "guest/protocol.h"
#include "guest/protocol_log.h"
#include "memcost/plugin_args.h"
#include "sys/file_streams.h"
#include "sys/files.h"

namespace kseries::session {

namespace fs = std::filesystem;

namespace {

// The console and the protocol port carry whatever the guest wrote (a
// corrupted line, a stray 0xFF, an escape sequence for the user's
// terminal): made valid, printable UTF-8 here, once, before any finding,
// event or report holds a piece of it.
// At most k_max_guest_log of each: 68 MB of protocol lines took 264 s and
// made a 44 MB HTML page. A guest that wrote more is judged on that much
// and on its last lines (a panic or a poweroff after a flood is seen).
constexpr std::size_t k_max_guest_log = std::size_t{16} << 20;

std::string file_text(const fs::path& path) {
  if (!fs::exists(path)) {
    return "";
  }
  bool truncated = false;
  std::string text = printable_text(read_file_head(path, k_max_guest_log, truncated));
  return truncated ? text + "\n[kseries: " + path.filename().string() +
                         " past 16 MiB is not read, but for its last " +
                         std::to_string(guest::k_protocol_tail_bytes / 1024) + " KiB:]\n" +
                         printable_text(read_file_tail(path, guest::k_protocol_tail_bytes))
                   : text;
}

// What the console, the protocol and the case's status say went wrong.
void classify(BootRecord& record, const SessionSpec& spec) {
  for (const auto& event : record.events) {
    record.powered_off = record.powered_off || event.verb == "poweroff";
  }
  const auto end = record.powered_off ? guest::BootEnd::k_powered_off
                   : record.run.process.end == ProcessEnd::k_timed_out
                       ? guest::BootEnd::k_timed_out
                       : guest::BootEnd::k_qemu_failed;
  const std::string qemu_detail =
      record.run.ended_early.empty() ? record.run.process.describe() : record.run.ended_early;
  record.findings = guest::triage_boot(file_text(record.run.console), end, qemu_detail);
  if (!record.powered_off && record.findings.empty()) {
    record.problems.push_back("the guest did not power off");
  }
  for (const auto& event : record.events) {
    if (event.verb == "guest-error") {
      record.problems.push_back("guest error: " + event.get("reason"));
    }
  }
  if (record.powered_off) {
    for (auto& problem : guest::case_problems(record.events, spec.setups)) {
      record.problems.push_back(std::move(problem));
    }
  }
}

// The timings of one boot, labelled by the clock that made them. An oracle
// case's counts and sizes (events, dump bytes) stay in the JSON; only its
// fast-path timings (kind first/rebind, e.g. memmap-types' memremap_pages
// ns) go to the table and the comparison.
std::vector<guest::Measurement> timings(BootRecord& record, const SessionSpec& spec) {
  auto measured = guest::measurements(record.events);
  cases::MemoryCosts costs;
  if (spec.vm.clock == qemu::Clock::k_memory && spec.timing_only) {
    costs = cases::memory_costs(measured, record.memcost, spec.memory_models);
    for (auto& problem : costs.problems) {
      record.problems.push_back(std::move(problem));
    }
    record.memcost_owners = std::move(costs.owners);
    record.memory_traffic = std::move(costs.traffic);
  }
  if (!spec.timing_only) {
    std::erase_if(measured, [](const guest::Measurement& m) {
      return (m.kind != "first" && m.kind != "rebind") || (m.unit != "ns" && m.unit != "ms");
    });
  }
  cases::label_clock(measured, spec.vm.clock);
  measured.insert(measured.end(), costs.added.begin(), costs.added.end());
  return measured;
}

// The memory clock: the plugin's -plugin argument for this kernel, its
// records file emptied (the plugin appends).
void add_memory_plugin(qemu::VmSpec& boot, const KernelUnderTest& kernel, const SessionSpec& spec) {
  memcost::PluginRequest request;
  request.plugin = memcost::plugin_path();
  request.records = boot.run_dir / (boot.name + ".memcost");
  request.irq_entries = boot.run_dir / (boot.name + ".memcost-irq");
  request.symbols = memcost::load_symbols(kernel.build.system_map, "memmap_init_zone_device");
  // x86-64's THREAD_SIZE doubles under KASAN: the window follows its stack.
  std::error_code ec;
  if (fs::is_regular_file(kernel.build.config, ec) &&
      read_file(kernel.build.config).find("\nCONFIG_KASAN=y") != std::string::npos) {
    request.stack_size = 32768;
  }
  for (const auto& model : spec.memory_models) {
    request.models.emplace_back(model.label, model.profile);
  }
  fs::remove(request.records, ec);
  boot.plugins.push_back(memcost::plugin_argument(request));
}

// The plugin's records, read back bounded (64 MiB: ~300,000 windows).
memcost::Records memory_records(const qemu::VmSpec& boot) {
  const fs::path path = boot.run_dir / (boot.name + ".memcost");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return {};
  }
  if (fs::file_size(path, ec) > (64u << 20)) {
    memcost::Records r;
    r.header = true;
    r.problems.push_back(path.string() + " is larger than 64 MiB");
    return r;
  }
  return memcost::parse_records(read_file(path));
}

BootRecord boot_once(KernelUnderTest& kernel, int round, int rounds, const SessionSpec& spec,
                     qemu::Vm& vm, Status& status, int rerun = 0) {
  BootRecord record;
  record.role = kernel.role;
  record.kernel = kernel.name;
  record.round = round;
  record.rerun = rerun;
  record.clock = spec.vm.clock;
  record.system_map = kernel.build.system_map;
  record.new_path = spec.new_path;
  qemu::VmSpec boot = spec.vm;
  boot.kernel = kernel.build.image;
  boot.initramfs = kernel.initramfs;
  boot.name = boot_file_prefix(kernel.role, round, rerun);
  boot.cmdline = spec.guest_cmdline;
  if (spec.vm.clock == qemu::Clock::k_memory) {
    add_memory_plugin(boot, kernel, spec);  // before the cache key: it is in the argv
  }
  if (spec.cover) {
    const fs::path cover = boot.run_dir / (boot.name + ".cover");
    std::error_code ec;
    fs::remove(cover, ec);  // the plugin writes it at exit: no stale one read back
    boot.plugins.push_back(memcost::cover_argument(memcost::plugin_path(), cover));
  }
  status.progress("boot " + std::to_string(round) + "/" + std::to_string(rounds) + " " +
                  kernel.name + (rerun ? " again (rerun " + std::to_string(rerun) + ")" : "") +
                  " " + spec.label);
  const bool cacheable = spec.boot_cache && !spec.cover &&
                         (spec.cache_every_kernel || is_baseline(kernel.role)) &&
                         qemu::counts_instructions(spec.vm.clock);
  const std::string key = cacheable ? spec.boot_cache->key(boot, vm.accel()) : "";
  auto reused =
      cacheable ? spec.boot_cache->restore(key, boot, vm.accel(), vm.accel_note()) : std::nullopt;
  if (reused) {
    status.progress("boot " + std::to_string(round) + " " + kernel.name +
                    ": the same boot (kernel, initramfs, QEMU arguments) under " +
                    qemu::clock_name(spec.vm.clock) + " is kept in " +
                    (spec.boot_cache->dir() / key.substr(0, 12)).string() + "…: reused");
  }
  record.run = reused ? *reused : vm.boot(boot);
  record.seconds = static_cast<double>(record.run.process.elapsed.count()) / 1000.0;
  auto protocol = guest::read_protocol_log(record.run.protocol, k_max_guest_log);
  record.events = std::move(protocol.events);
  const bool flooded = protocol.flooded;
  if (spec.vm.clock == qemu::Clock::k_memory) {
    record.memcost = memory_records(boot);
  }
  classify(record, spec);
  if (flooded) {
    record.problems.push_back("the guest wrote more than 16 MiB of protocol lines (" +
                              record.run.protocol.string() +
                              "): judged on the first 16 MiB (and its last lines' poweroff)");
  }
  const auto measured = timings(record, spec);
  cases::add_boot(kernel.timing, measured);
  cases::add_traffic(kernel.traffic, record.memory_traffic);
  ++kernel.boots;
  status.progress("boot " + std::to_string(round) + " " + kernel.name + ": " +
                  std::to_string(measured.size()) + " measurements, " +
                  std::to_string(record.findings.size()) + " findings, " +
                  std::to_string(static_cast<int>(record.seconds)) + " s");
  if (spec.oracle) {
    // The host oracle reads the dumps back from this boot's bulk disk.
    if (fs::exists(record.run.bulk)) {
      spec.oracle->judge_boot(record);
    }
    for (const auto& verdict : record.verdicts) {
      status.progress("oracle " + kernel.name + " " + verdict.setup + ": " +
                      std::string(oracle::verdict_name(verdict.status)) + ": " + verdict.summary);
    }
    for (auto& problem : missing_evidence(*spec.oracle, record)) {
      record.problems.push_back(std::move(problem));
    }
  }
  if (cacheable && !reused && record.powered_off && record.findings.empty() &&
      record.problems.empty()) {
    spec.boot_cache->store(key, record.run);
  }
  if (!spec.keep_bulk) {
    std::error_code ec;
    fs::remove(record.run.bulk, ec);  // read into the record above; not a result
  }
  return record;
}

}  // namespace

std::string boot_file_prefix(KernelRole role, int round, int rerun) {
  return role_name(role) + "-" + std::to_string(round) +
         (rerun ? "-rerun" + std::to_string(rerun) : "");
}

namespace {

std::string findings_summary(const BootRecord& record) {
  std::string text;
  for (const auto& finding : record.findings) {
    text += (text.empty() ? "" : "; ") + std::string(guest::to_string(finding.kind)) + ": " +
            finding.title;
  }
  return text;
}

// KERNEL's boot of ROUND; a baseline boot with a console finding is booted
// again (SessionSpec::baseline_reruns), its measurements of the boot it
// repeats dropped. The first clean rerun is the round's record and the
// boots before it go to RESULT's flaky_baseline; when every rerun has a
// finding too, the first boot stays, with a problem saying so.
BootRecord boot_judged(KernelUnderTest& kernel, int round, const SessionSpec& spec, qemu::Vm& vm,
                       Status& status, SessionResult& result) {
  struct Pooled {  // what a boot adds to its kernel
    cases::TimingData timing;
    cases::TrafficData traffic;
    int boots;
  };
  const auto take = [&kernel] { return Pooled{kernel.timing, kernel.traffic, kernel.boots}; };
  const auto put = [&kernel](const Pooled& pooled) {
    kernel.timing = pooled.timing;
    kernel.traffic = pooled.traffic;
    kernel.boots = pooled.boots;
  };
  const Pooled before = take();
  BootRecord first = boot_once(kernel, round, result.boots, spec, vm, status);
  if (!is_baseline(kernel.role) || first.findings.empty() || spec.baseline_reruns <= 0) {
    return first;
  }
  const Pooled with_first = take();
  const std::string role = role_name(kernel.role);
  std::vector<BootRecord> tried;
  std::string consoles;
  for (int rerun = 1; rerun <= spec.baseline_reruns; ++rerun) {
    status.progress("boot " + std::to_string(round) + " " + kernel.name + ": " +
                    findings_summary(tried.empty() ? first : tried.back()) + ": a finding on the " +
                    role + " kernel, not the series': booting it again (flaky or not?)");
    put(before);
    BootRecord again = boot_once(kernel, round, result.boots, spec, vm, status, rerun);
    if (again.findings.empty()) {
      status.progress("boot " + std::to_string(round) + " " + kernel.name + ": rerun " +
                      std::to_string(rerun) + " has no finding: flaky on the " + role +
                      "; the rerun is judged");
      result.flaky_baseline.push_back(std::move(first));
      for (auto& record : tried) {
        result.flaky_baseline.push_back(std::move(record));
      }
      return again;
    }
    consoles += (consoles.empty() ? "" : ", ") + again.run.console.filename().string();
    tried.push_back(std::move(again));
  }
  // Every rerun had a finding: the base itself fails here, judged on its
  // first boot as without reruns.
  put(with_first);
  first.problems.push_back("the " + role + " kernel's finding came back in each of " +
                           std::to_string(spec.baseline_reruns) + " rerun(s) (" + consoles +
                           "): the " + role + " itself fails this case");
  return first;
}

}  // namespace

SessionResult run_boots(std::vector<KernelUnderTest>& kernels, const SessionSpec& spec,
                        qemu::Vm& vm, Status& status) {
  SessionResult result;
  result.boots = spec.boots;
  for (int round = 1; round <= result.boots; ++round) {
    // A B, then B A: counterbalanced, so a drift or an order effect within a
    // round hits both kernels alike over two rounds.
    std::vector<KernelUnderTest*> order;
    for (auto& k : kernels) {
      order.push_back(&k);
    }
    if (round % 2 == 0) {
      std::reverse(order.begin(), order.end());
    }
    for (KernelUnderTest* kernel : order) {
      result.records.push_back(boot_judged(*kernel, round, spec, vm, status, result));
    }
    if (spec.adaptive && round == 1 && result.boots == 1 && kernels.size() == 2) {
      const auto undecided = cases::undecided_virtual_metrics(kernels[0].timing, kernels[1].timing);
      if (!undecided.empty()) {
        result.boots = 2;
        std::string names;
        for (const auto& name : undecided) {
          names += (names.empty() ? "" : ", ") + name;
        }
        status.progress("a second pair of boots: unknown after one pair: " + names);
      }
    }
  }
  return result;
}

}  // namespace kseries::session
