// kseries boot: boot kernels built by `kseries build` in QEMU with emulated
// pmem, run a testcase in the guest, triage the serial log, and (with
// --compare-base) judge the series against the base from interleaved boots.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "cases/case_def.h"
#include "cases/memmap_timing.h"
#include "cli/commands.h"
#include "core/error.h"
#include "git/apply.h"
#include "guest/case_status.h"
#include "guest/initramfs.h"
#include "guest/protocol.h"
#include "guest/triage.h"
#include "kernel/kernel_build.h"
#include "oracle/equivalence.h"
#include "oracle/hugetlb_tails.h"
#include "qemu/vm.h"
#include "report/junit.h"
#include "series/series_chain.h"
#include "stats/lkp_table.h"
#include "stats/power.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

struct KernelUnderTest {
  std::string name;  // "base" or the series name
  git_oid commit{};
  kernel::KernelBuild build;
  cases::TimingData timing;
  int boots = 0;
  std::filesystem::path initramfs;
};

struct BootRecord {
  std::string kernel;
  int round = 0;
  qemu::VmRun run;
  std::vector<guest::Event> events;
  std::vector<guest::Finding> findings;
  bool powered_off = false;
  double seconds = 0;
  std::vector<oracle::SetupDumps> dumps;       // memmap-vs-base: judged after all boots
  std::vector<oracle::SetupVerdict> verdicts;  // the host oracle's, per setup
  oracle::HugetlbDumps hugetlb;                // hugetlb-tails: judged vs base after all boots
};

// An oracle case whose guest passed a setup must leave the host oracle
// something to judge for it: a verdict from this boot, or dumps for the
// pairing after all boots. "Nothing to judge" is a failure, never a pass.
std::vector<std::string> missing_oracle_evidence(const std::string& oracle_name,
                                                 const BootRecord& record) {
  std::vector<std::string> problems;
  if (oracle_name.empty() || !record.powered_off) {
    return problems;
  }
  std::set<std::string> judged;
  for (const auto& verdict : record.verdicts) {
    judged.insert(verdict.setup);
  }
  for (const auto& dumps : record.dumps) {
    judged.insert(dumps.setup);
  }
  for (const auto& setup : guest::passed_subjects(record.events)) {
    if (!judged.count(setup)) {
      problems.push_back("oracle " + oracle_name + " has nothing to judge for setup " + setup +
                         " (no dump of it on the bulk disk)");
    }
  }
  return problems;
}

const std::vector<std::string> k_memmap_setups = {"fsdax-mem", "fsdax-dev", "devdax-mem",
                                                  "devdax-dev"};

// "fsdax-dev" -> "map=dev": the name targets use in their `cannot:` lines.
std::string setup_map(const std::string& setup) {
  const auto dash = setup.rfind('-');
  return dash == std::string::npos ? "" : "map=" + setup.substr(dash + 1);
}

nlohmann::json samples_json(const cases::MetricSamples& samples) {
  const auto summary = stats::summarize(samples.rebinds);
  return {{"unit", samples.unit},
          {"first", samples.first},
          {"rebinds", samples.rebinds},
          {"probe", samples.probe},
          {"pages", samples.pages},
          {"summary",
           {{"n", summary.n},
            {"mean", summary.mean},
            {"median", summary.median},
            {"trimmed_mean", summary.trimmed_mean},
            {"stddev", summary.stddev},
            {"ci95", {summary.mean_interval.low, summary.mean_interval.high}}}}};
}

// Series names hold '/' ("zone-device-memmap/v6"): not in a file name.
std::string file_safe(std::string name) {
  for (char& c : name) {
    if (c == '/' || c == ' ') {
      c = '-';
    }
  }
  return name;
}

std::string fmt(double value) {
  std::ostringstream out;
  out.precision(4);
  out << value;
  return out.str();
}

}  // namespace

int run_boot(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries boot options");
  options.add_options()("target", po::value<std::string>()->default_value("pmem"),
                        "kernel target (built with kseries build if needed)")(
      "case", po::value<std::string>()->default_value("memmap-timing"), "testcase to run")(
      "series", po::value<std::string>(), "boot the kernel with this series applied")(
      "upto", po::value<std::size_t>(), "only the first K patches of the series")(
      "compare-base",
      "also boot the base kernel, interleaved, and compare; without --series: base against "
      "base (an A/A control that also estimates the smallest detectable change)")(
      "against", po::value<std::string>(),
      "with --series and --compare-base: compare against this series (e.g. the previous "
      "revision) instead of the base")(
      "boots", po::value<int>()->default_value(1),
      "boots per kernel (under the icount clock, when not given: 1, and a second pair only "
      "when a verdict is unknown)")("rebinds", po::value<int>()->default_value(30),
                                    "rebinds per setup (memmap-timing)")(
      "setups", po::value<std::string>(),
      "comma-separated setups (default fsdax-mem,fsdax-dev,devdax-mem,devdax-dev)")(
      "args", po::value<std::string>(), "extra comma-separated key=value arguments for the case")(
      "pmem", po::value<std::string>()->default_value("legacy"),
      "pmem topology: legacy (memmap=SIZE!OFFSET) or nvdimm (QEMU vNVDIMM)")(
      "size", po::value<std::string>()->default_value("2G"), "pmem size")(
      "accel", po::value<std::string>()->default_value("auto"), "auto, kvm or tcg")(
      "clock", po::value<std::string>()->default_value("auto"),
      "what times are measured in: icount (virtual ns = guest instructions, TCG only; "
      "deterministic), wall, or auto (icount under TCG, wall under KVM)")(
      "timeout", po::value<int>(), "seconds per boot (default: the case's)")(
      "configs", po::value<std::string>(), "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(), "testcases directory (default: the bundled one)")(
      "jobs,j", po::value<std::size_t>()->default_value(std::thread::hardware_concurrency()),
      "make -j when a kernel must be built")("junit", po::value<std::string>(),
                                             "also write the JUnit XML report here")(
      "json", po::value<std::string>(), "also write the JSON results here");
  options.add(base_options());
  po::variables_map vm;
  if (!parse_command_line("boot", "[--target T] [--series DIR [--compare-base]] [--case NAME]",
                          args, options, vm, context)) {
    return 0;
  }

  // Phase 1, inputs.
  const std::string pmem = vm["pmem"].as<std::string>();
  if (pmem != "legacy" && pmem != "nvdimm") {
    throw usage_error("--pmem must be legacy or nvdimm, not '" + pmem + "'");
  }
  const std::string accel_text = vm["accel"].as<std::string>();
  if (accel_text != "auto" && accel_text != "kvm" && accel_text != "tcg") {
    throw usage_error("--accel must be auto, kvm or tcg, not '" + accel_text + "'");
  }
  int boots = vm["boots"].as<int>();
  if (boots < 1) {
    throw usage_error("--boots must be at least 1");
  }
  const fs::path testcases = testcases_dir(vm);
  const auto target = kernel::load_target(configs_dir(vm), vm["target"].as<std::string>());
  const auto test_case = cases::load_case(testcases, vm["case"].as<std::string>());
  const fs::path run_dir = context.workdir().new_run("boot");
  report::TestSuite suite;
  suite.name = "kseries boot " + target.name + " " + test_case.name;
  suite.timestamp = report::utc_timestamp();
  // Nothing to boot: the suite holds the skipped cases and their reasons.
  auto write_skipped_suite = [&] {
    report::write_junit(run_dir / "junit.xml", {suite});
    if (vm.count("junit")) {
      report::write_junit(vm["junit"].as<std::string>(), {suite});
    }
    return 0;
  };

  for (const auto& need : test_case.needs) {
    if (!target.has_feature(need)) {
      std::string why = target.limitation(test_case.name);
      if (why.empty()) {
        why = target.limitation(need).empty() ? target.purpose : target.limitation(need);
      }
      const std::string reason = "target " + target.name + " lacks '" + need + "' (" + why + ")";
      std::cout << "skipped " << test_case.name << " on " << target.name << ": " << reason << "\n";
      report::TestCase skipped{"boot." + target.name,
                               test_case.name,
                               0,
                               report::CaseStatus::k_skipped,
                               reason,
                               "",
                               {},
                               ""};
      suite.cases.push_back(skipped);
      return write_skipped_suite();
    }
  }

  if (test_case.oracle == "memmap-vs-base" && !vm.count("series")) {
    throw usage_error("case " + test_case.name +
                      " compares a series kernel with the base: give --series DIR");
  }

  // The case's arguments; setups the target cannot do are skipped with the
  // reason, before any kernel is built: a run left with nothing to boot builds
  // nothing.
  std::vector<std::string> case_args;
  std::vector<std::pair<std::string, std::string>> skipped_setups;
  std::vector<std::string> requested_setups;  // each must get a result from the guest
  auto add_skipped_setups = [&](std::ostream& text) {
    for (const auto& [setup, why] : skipped_setups) {
      text << "skipped setup " << setup << " on " << target.name << ": " << why << "\n";
      suite.cases.push_back({"boot." + target.name + "." + test_case.name,
                             setup,
                             0,
                             report::CaseStatus::k_skipped,
                             why,
                             "",
                             {},
                             ""});
    }
  };
  const bool pmem_case =
      std::find(test_case.needs.begin(), test_case.needs.end(), "pmem") != test_case.needs.end();
  if (pmem_case || !test_case.setups.empty()) {
    std::vector<std::string> setups;
    if (vm.count("setups")) {
      std::istringstream list(vm["setups"].as<std::string>());
      for (std::string s; std::getline(list, s, ',');) {
        setups.push_back(s);
      }
    } else {
      setups = test_case.setups.empty() ? k_memmap_setups : test_case.setups;
    }
    std::string kept;
    for (const auto& setup : setups) {
      const std::string map = setup_map(setup);
      const std::string why = pmem_case && !map.empty() ? target.limitation(map) : "";
      if (!why.empty()) {
        skipped_setups.emplace_back(setup, why);
      } else {
        kept += (kept.empty() ? "" : ":") + setup;
        requested_setups.push_back(setup);
      }
    }
    if (kept.empty()) {
      // Nothing left to boot for: every setup is skipped, with its reason.
      add_skipped_setups(std::cout);
      return write_skipped_suite();
    }
    if (test_case.name == "memmap-timing") {
      case_args.push_back("rebinds=" + std::to_string(vm["rebinds"].as<int>()));
    }
    case_args.push_back("setups=" + kept);
  }
  if (vm.count("args")) {
    case_args.push_back(vm["args"].as<std::string>());
  }
  std::string joined_args;
  for (const auto& arg : case_args) {
    joined_args += (joined_args.empty() ? "" : ",") + arg;
  }

  // Phase 2, kernels: built (or found in the cache) by the build stage.
  const Base base = resolve_base(context, vm);
  std::vector<KernelUnderTest> kernels;
  std::optional<std::size_t> upto;
  if (vm.count("upto")) {
    upto = vm["upto"].as<std::size_t>();
  }
  if (vm.count("against")) {
    // Revision against revision: the other series' kernel takes the base's place.
    if (!vm.count("series") || !vm.count("compare-base") || !test_case.oracle.empty()) {
      throw usage_error("--against needs --series and --compare-base, and a timing case");
    }
    const auto chain = load_series_chain(vm["against"].as<std::string>());
    const auto applied = apply_series_or_fail(context, base, chain, std::nullopt);
    kernels.push_back({chain.back()->name, *applied.tip, {}, {}, 0, {}});
  } else if (!vm.count("series") || vm.count("compare-base") ||
             test_case.oracle == "memmap-vs-base" || test_case.oracle == "hugetlb-tails") {
    kernels.push_back({"base", base.commit, {}, {}, 0, {}});
  }
  if (vm.count("compare-base") && !vm.count("series")) {
    kernels.push_back({"base-again", base.commit, {}, {}, 0, {}});
  }
  if (vm.count("series")) {
    const auto chain = load_series_chain(vm["series"].as<std::string>());
    const auto applied = apply_series_or_fail(context, base, chain, upto);
    kernels.push_back({chain.back()->name, *applied.tip, {}, {}, 0, {}});
  }
  kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(),
                                std::max<std::size_t>(1, vm["jobs"].as<std::size_t>()));
  // Only the modules this case loads: a kernel cached without them is made
  // again (incrementally) to build them; other cases boot it as it is.
  std::vector<fs::path> module_dirs;
  for (const auto& module : test_case.modules) {
    module_dirs.push_back(testcases / module);
  }
  builder.set_test_modules(module_dirs);
  for (auto& k : kernels) {
    progress("kernel " + k.name + " for " + target.name + " (" +
             git::to_hex(k.commit).substr(0, 12) + ")");
    const auto built =
        builder.build(target, k.commit, run_dir / ("build-" + file_safe(k.name) + ".log"),
                      [&](const std::string& text) { progress(k.name + ": " + text); });
    if (!built.kernel) {
      std::string why = built.status == kernel::StepStatus::k_not_constructible
                            ? "target " + target.name + " is not constructible"
                            : "does not build";
      for (const auto& error : built.errors) {
        why += "\n  " + error.file + ":" + std::to_string(error.line) + ": " + error.message;
      }
      for (const auto& line : built.dropped) {
        why += "\n  dropped: " + line;
      }
      throw check_failure("kernel " + k.name + " for " + target.name + " " + why + " (log " +
                          built.log.string() + ")");
    }
    k.build = *built.kernel;
  }

  // Phase 3, guest: initramfs and accelerator.
  // One initramfs per kernel: the cases, plus the test modules built for it.
  for (auto& k : kernels) {
    guest::InitramfsSources sources{testcases, "/bin/busybox", {}};
    for (const auto& module : test_case.modules) {
      const auto ko = k.build.modules.find(module);
      if (ko == k.build.modules.end()) {
        const auto why = k.build.module_errors.find(module);
        throw infra_error("case " + test_case.name + " needs the test module " + module +
                          " built for kernel " + k.name + " (" + k.build.key.substr(0, 12) + "): " +
                          (why != k.build.module_errors.end()
                               ? why->second
                               : std::string("the target has no CONFIG_MODULES=y")));
      }
      sources.extra_files.emplace_back("testcases/" + module + "/" + ko->second.filename().string(),
                                       ko->second);
    }
    k.initramfs =
        guest::build_initramfs(sources, context.workdir().root() / "initramfs", context.runner());
  }
  const fs::path initramfs = kernels.front().initramfs;
  qemu::Vm vm_runner(context.runner(), context.workdir().root());
  qemu::VmSpec spec;
  spec.initramfs = initramfs;
  spec.run_dir = run_dir;
  spec.pmem = pmem == "nvdimm" ? qemu::PmemTopology::k_nvdimm : qemu::PmemTopology::k_legacy;
  spec.pmem_size = vm["size"].as<std::string>();
  spec.timeout =
      vm.count("timeout") ? std::chrono::seconds(vm["timeout"].as<int>()) : test_case.timeout;
  spec.kernel = kernels.front().build.bzimage;
  spec.tcg_cpu = test_case.tcg_cpu;
  vm_runner.choose_accel(accel_text == "kvm"   ? qemu::Accel::k_kvm
                         : accel_text == "tcg" ? qemu::Accel::k_tcg
                                               : qemu::Accel::k_auto,
                         spec);
  progress("accelerator: " + vm_runner.accel_note());
  spec.clock = qemu::choose_clock(vm["clock"].as<std::string>(), vm_runner.accel());
  progress("clock: " + qemu::clock_note(spec.clock));
  // Under the instruction clock one boot a side decides unless a verdict is
  // unknown; then a second pair checks that the boots agree.
  const bool adaptive_boots =
      vm["boots"].defaulted() && spec.clock == qemu::Clock::k_icount && kernels.size() == 2;

  // Phase 4, boots: interleaved A B A B so drift on this shared machine hits
  // both kernels alike.
  std::vector<BootRecord> records;
  bool failed = false;
  for (int round = 1; round <= boots; ++round) {
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
      auto& k = *kernel;
      BootRecord record;
      record.kernel = k.name;
      record.round = round;
      qemu::VmSpec boot = spec;
      boot.kernel = k.build.bzimage;
      boot.initramfs = k.initramfs;
      // One file prefix per kernel slot: two series (--against) never share one.
      const bool against_slot = vm.count("against") && &k == &kernels.front();
      boot.name = std::string(against_slot             ? "against"
                              : k.name == "base"       ? "base"
                              : k.name == "base-again" ? "base-again"
                                                       : "series") +
                  "-" + std::to_string(round);
      boot.cmdline = test_case.cmdline;
      if (!target.cmdline.empty()) {
        boot.cmdline += " " + target.cmdline;
      }
      boot.cmdline += " kseries.case=" + test_case.name;
      if (!joined_args.empty()) {
        boot.cmdline += " kseries.args=" + joined_args;
      }
      progress("boot " + std::to_string(round) + "/" + std::to_string(boots) + " " + k.name + " (" +
               vm_runner.accel() + ", " + pmem + " pmem " + spec.pmem_size + ")");
      record.run = vm_runner.boot(boot);
      record.seconds = static_cast<double>(record.run.process.elapsed.count()) / 1000.0;
      const std::string console =
          fs::exists(record.run.console) ? read_file(record.run.console) : "";
      const std::string protocol =
          fs::exists(record.run.protocol) ? read_file(record.run.protocol) : "";
      record.events = guest::parse_protocol(protocol);
      for (const auto& event : record.events) {
        record.powered_off = record.powered_off || event.verb == "poweroff";
      }
      const auto end = record.powered_off ? guest::BootEnd::k_powered_off
                       : record.run.process.end == ProcessEnd::k_timed_out
                           ? guest::BootEnd::k_timed_out
                           : guest::BootEnd::k_qemu_failed;
      record.findings = guest::triage_boot(console, end, record.run.process.describe());
      auto measured = guest::measurements(record.events);
      if (!test_case.oracle.empty()) {
        // An oracle case's counts and sizes (events, dump bytes) stay in the
        // JSON; only its timings of the fast-path runs (kind first/rebind,
        // e.g. memmap-types' memremap_pages ns) go to the table and compare.
        std::erase_if(measured, [](const guest::Measurement& m) {
          return (m.kind != "first" && m.kind != "rebind") || (m.unit != "ns" && m.unit != "ms");
        });
      }
      cases::label_clock(measured, spec.clock);
      cases::add_boot(k.timing, measured);
      ++k.boots;
      progress("boot " + std::to_string(round) + " " + k.name + ": " +
               std::to_string(measured.size()) + " measurements, " +
               std::to_string(record.findings.size()) + " findings, " +
               std::to_string(static_cast<int>(record.seconds)) + " s");
      // The host oracle reads the dumps back from this boot's bulk disk.
      if (!test_case.oracle.empty() && fs::exists(record.run.bulk)) {
        if (test_case.oracle == "memmap-equivalence") {
          record.verdicts = oracle::judge_memmap_equivalence(record.events, record.run.bulk);
        } else if (test_case.oracle == "hugetlb-tails") {
          record.hugetlb = oracle::collect_hugetlb_dumps(record.events, record.run.bulk);
          record.verdicts = oracle::judge_hugetlb_tails(record.hugetlb);
        } else {
          std::map<std::string, std::string> errors;
          record.dumps = oracle::collect_setup_dumps(record.events, record.run.bulk, errors);
          for (const auto& [setup, why] : errors) {
            record.verdicts.push_back({setup, oracle::VerdictStatus::k_fail, why, ""});
          }
        }
        for (const auto& verdict : record.verdicts) {
          progress("oracle " + k.name + " " + verdict.setup + ": " +
                   std::string(oracle::verdict_name(verdict.status)) + ": " + verdict.summary);
        }
      }
      records.push_back(std::move(record));
    }
    if (adaptive_boots && round == 1 && boots == 1) {
      const auto undecided = cases::undecided_virtual_metrics(kernels[0].timing, kernels[1].timing);
      if (!undecided.empty()) {
        boots = 2;
        std::string names;
        for (const auto& name : undecided) {
          names += (names.empty() ? "" : ", ") + name;
        }
        progress("a second pair of boots: unknown after one pair: " + names);
      }
    }
  }

  // Phase 5, judge and report.
  std::ostringstream out;
  out << "accelerator: " << vm_runner.accel_note() << "\n";
  out << "clock: " << qemu::clock_note(spec.clock) << "\n";
  if (vm_runner.accel() == "tcg") {
    out << "note: TCG emulation, not KVM: absolute times are not comparable with the series'"
           " VM numbers; compare ratios\n";
  }
  const bool icount = spec.clock == qemu::Clock::k_icount;
  if (kernels.size() > 1) {
    out << "boots interleaved: " << boots << " round(s) of " << kernels.front().name << ", "
        << kernels.back().name << " (A B, B A, ...)\n";
    if (icount) {
      out << "note: icount: boots are deterministic, so " << boots
          << " boot(s) a side; the rebinds are the samples, and boots of one kernel whose means "
             "agree within 0.1 % pool their rebinds (materiality 0.25 %)"
          << (adaptive_boots ? "; a second pair is booted only when a verdict is unknown" : "")
          << "\n";
    } else if (boots == 1) {
      out << "note: one boot per kernel: the rebinds are taken as independent samples, so "
             "boot-to-boot variation is not in the intervals; --boots 4 or more gives a verdict "
             "that must hold across boots\n";
    } else {
      out << "note: " << boots << " boots per kernel: intervals resample boots, then rebinds "
          << "within a boot; the p-value compares boot means"
          << (boots < 4 ? " and cannot go below 0.05 with fewer than 4 boots a side, so no "
                          "faster/slower verdict is possible"
                        : "")
          << "\n";
    }
  }
  nlohmann::json json = {{"target", target.name},
                         {"case", test_case.name},
                         {"accel", vm_runner.accel()},
                         {"accel_note", vm_runner.accel_note()},
                         {"clock", qemu::clock_name(spec.clock)},
                         {"boots_per_kernel", boots},
                         {"pmem", pmem},
                         {"pmem_size", spec.pmem_size},
                         {"interleaved", kernels.size() > 1},
                         {"run_dir", run_dir.string()}};
  suite.properties = {{"accel", vm_runner.accel()},
                      {"clock", qemu::clock_name(spec.clock)},
                      {"accel_note", vm_runner.accel_note()},
                      {"target", target.name},
                      {"case", test_case.name}};
  add_skipped_setups(out);
  // One JUnit testcase per (target, case, kernel, setup) from the host oracle.
  auto add_verdict = [&](const oracle::SetupVerdict& verdict, const std::string& kernel,
                         int round) {
    report::TestCase test;
    test.classname = "oracle." + target.name + "." + test_case.name + "." + file_safe(kernel);
    test.name = verdict.setup + " #" + std::to_string(round);
    test.message = verdict.summary;
    test.detail = verdict.details;
    const std::string status(oracle::verdict_name(verdict.status));
    if (verdict.status == oracle::VerdictStatus::k_fail) {
      failed = true;
      test.status = report::CaseStatus::k_failed;
      constexpr std::size_t k_excerpt = 3000;
      out << "FAILED oracle " << kernel << " " << verdict.setup << ": " << verdict.summary << "\n"
          << verdict.details.substr(0, k_excerpt)
          << (verdict.details.size() > k_excerpt ? "...\n" : "");
    } else {
      if (verdict.status == oracle::VerdictStatus::k_skip) {
        test.status = report::CaseStatus::k_skipped;
      }
      out << "oracle " << kernel << " " << verdict.setup << ": " << status << ": "
          << verdict.summary << "\n";
    }
    json["oracle"].push_back({{"kernel", kernel},
                              {"round", round},
                              {"setup", verdict.setup},
                              {"status", status},
                              {"summary", verdict.summary}});
    suite.cases.push_back(std::move(test));
  };
  for (const auto& record : records) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& finding : record.findings) {
      findings.push_back({{"kind", guest::to_string(finding.kind)},
                          {"line", finding.line},
                          {"title", finding.title}});
    }
    json["boots"].push_back({{"kernel", record.kernel},
                             {"round", record.round},
                             {"accel", record.run.accel},
                             {"seconds", record.seconds},
                             {"qemu", record.run.process.describe()},
                             {"powered_off", record.powered_off},
                             {"console", record.run.console.string()},
                             {"protocol", record.run.protocol.string()},
                             {"argv", record.run.argv},
                             {"findings", findings}});
    report::TestCase test;
    test.classname = "boot." + target.name + "." + test_case.name;
    test.name = "boot " + record.kernel + " #" + std::to_string(record.round);
    test.seconds = record.seconds;
    test.properties = {{"accel", record.run.accel}, {"console", record.run.console.string()}};
    std::string problems;
    for (const auto& finding : record.findings) {
      problems += std::string(guest::to_string(finding.kind)) + ": " + finding.title + "\n";
      test.detail += finding.excerpt + "\n";
    }
    if (!record.powered_off && record.findings.empty()) {
      problems += "the guest did not power off\n";
    }
    for (const auto& event : record.events) {
      if (event.verb == "guest-error") {
        problems += "guest error: " + event.get("reason") + "\n";
      }
    }
    if (record.powered_off) {
      for (const auto& problem : guest::case_problems(record.events, requested_setups)) {
        problems += problem + "\n";
      }
    }
    for (const auto& problem : missing_oracle_evidence(test_case.oracle, record)) {
      problems += problem + "\n";
    }
    if (!problems.empty()) {
      failed = true;
      test.status = report::CaseStatus::k_failed;
      test.message = problems.substr(0, problems.find('\n'));
      out << "FAILED " << test.name << " (" << record.run.console.string() << ")\n" << problems;
    }
    suite.cases.push_back(std::move(test));
    for (const auto& event : record.events) {
      if (event.verb != "result") {
        continue;
      }
      report::TestCase result;
      result.classname = "case." + target.name + "." + test_case.name + "." + record.kernel;
      result.name = event.get("subject") + " #" + std::to_string(record.round);
      const std::string status = event.get("status");
      if (status == "fail") {
        failed = true;
        result.status = report::CaseStatus::k_failed;
        out << "FAILED " << record.kernel << " " << event.get("subject") << ": "
            << event.get("reason") << "\n";
      } else {
        if (status == "skip") {
          result.status = report::CaseStatus::k_skipped;
        }
        out << status << " " << record.kernel << " #" << record.round << " " << event.get("subject")
            << ": " << event.get("reason") << "\n";
      }
      result.message = event.get("reason");
      suite.cases.push_back(std::move(result));
    }
    for (const auto& verdict : record.verdicts) {
      add_verdict(verdict, record.kernel, record.round);
    }
  }
  // memmap-vs-base: each round's series boot against the same round's base boot.
  if (test_case.oracle == "memmap-vs-base") {
    for (const auto& series : records) {
      if (series.kernel == "base") {
        continue;
      }
      const BootRecord* base = nullptr;
      for (const auto& other : records) {
        if (other.kernel == "base" && other.round == series.round) {
          base = &other;
        }
      }
      for (const auto& dumps : series.dumps) {
        oracle::SetupVerdict verdict;
        verdict.setup = dumps.setup;
        const oracle::SetupDumps* reference = nullptr;
        if (base) {
          for (const auto& candidate : base->dumps) {
            if (candidate.setup == dumps.setup) {
              reference = &candidate;
            }
          }
        }
        if (reference) {
          verdict = oracle::judge_vs_base(*reference, dumps);
        } else {
          verdict.status = oracle::VerdictStatus::k_fail;
          verdict.summary = "no dumps of " + dumps.setup + " from the base kernel's boot #" +
                            std::to_string(series.round);
        }
        progress("oracle " + series.kernel + " vs base " + verdict.setup + ": " +
                 std::string(oracle::verdict_name(verdict.status)) + ": " + verdict.summary);
        add_verdict(verdict, series.kernel + " vs base", series.round);
      }
    }
  }
  // hugetlb-tails: each round's series boot against the same round's base boot.
  if (test_case.oracle == "hugetlb-tails") {
    for (const auto& series : records) {
      if (series.kernel == "base") {
        continue;
      }
      const auto base = std::find_if(records.begin(), records.end(), [&](const BootRecord& r) {
        return r.kernel == "base" && r.round == series.round;
      });
      if (base == records.end()) {
        continue;
      }
      for (const auto& verdict : oracle::judge_hugetlb_vs_base(base->hugetlb, series.hugetlb)) {
        progress("oracle " + series.kernel + " vs base " + verdict.setup + ": " +
                 std::string(oracle::verdict_name(verdict.status)) + ": " + verdict.summary);
        add_verdict(verdict, series.kernel + " vs base", series.round);
      }
    }
  }
  for (auto& k : kernels) {
    // Cases judged by an oracle mostly measure counts and sizes: a table only
    // for the timings they have.
    if (test_case.oracle.empty() || !k.timing.empty()) {
      out << cases::render_summary_table(k.name + " (" + k.build.key.substr(0, 12) + ")", k.timing);
    } else {
      out << "kernel " << k.name << " (" << k.build.key.substr(0, 12) << ")\n";
    }
    for (const auto& [setup, share] : cases::memmap_share_of_bind(k.timing)) {
      out << "  " << setup << ": memmap_init_zone_device() is " << fmt(share * 100)
          << "% of the whole bind (ftrace ns / user-space bind ns)\n";
    }
    nlohmann::json setups;
    for (const auto& [key, samples] : k.timing) {
      setups[key.first][key.second] = samples_json(samples);
    }
    json["kernels"][k.name] = {{"commit", git::to_hex(k.commit)},
                               {"kernel", k.build.key},
                               {"bzImage", k.build.bzimage.string()},
                               {"boots", k.boots},
                               {"setups", setups}};
    if (kernels.size() == 1) {
      for (const auto& [key, samples] : k.timing) {
        const auto summary = stats::summarize(samples.rebinds);
        suite.cases.push_back({"timing." + target.name + "." + k.name,
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
  if (kernels.size() == 2) {
    const auto& a = kernels[0];
    const auto& b = kernels[1];
    std::vector<stats::LkpRow> rows;
    for (const auto& [key, samples] : a.timing) {
      auto other = b.timing.find(key);
      if (other == b.timing.end() || samples.rebinds.empty()) {
        continue;
      }
      auto options = cases::compare_options_for(samples.unit);
      options.base_blocks = samples.rebind_blocks;  // boots: a two-stage bootstrap
      options.candidate_blocks = other->second.rebind_blocks;
      const auto comparison = stats::compare(samples.rebinds, other->second.rebinds, options);
      rows.push_back({key.second + "." + key.first, comparison});
      const std::string verdict(stats::verdict_name(comparison.verdict));
      json["comparison"].push_back(
          {{"setup", key.first},
           {"metric", key.second},
           {"unit", samples.unit},
           {"ratio", comparison.ratio},
           {"relative_change", comparison.relative_change},
           {"ci95", {comparison.ratio_interval.low, comparison.ratio_interval.high}},
           {"p", comparison.rank_test.p},
           {"verdict", verdict},
           {"reason", comparison.reason}});
      report::TestCase test;
      test.classname = "compare." + target.name + "." + test_case.name;
      test.name = key.first + " " + key.second + " " + b.name + " vs " + a.name;
      test.properties = {{"n_base", std::to_string(comparison.base.n)},
                         {"n_series", std::to_string(comparison.candidate.n)},
                         {"mean_base", fmt(comparison.base.mean)},
                         {"mean_series", fmt(comparison.candidate.mean)},
                         {"change", fmt(comparison.relative_change * 100) + "%"},
                         {"ci95_ratio", "[" + fmt(comparison.ratio_interval.low) + ", " +
                                            fmt(comparison.ratio_interval.high) + "]"},
                         {"p", fmt(comparison.rank_test.p)},
                         {"verdict", verdict}};
      if (comparison.verdict == stats::Verdict::k_slower) {
        failed = true;
        test.status = report::CaseStatus::k_failed;
        test.message = "slower: " + comparison.reason;
      }
      suite.cases.push_back(std::move(test));
    }
    out << stats::render_lkp_table(a.name, b.name, rows);
    if (b.name == "base-again") {
      // A/A: how small a slowdown would the same setting have detected?
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
        if (samples.unit == "vns") {
          // The instruction clock resolves hundredths of a percent: search
          // below the wall clock's 1 % floor.
          power.min_effect = 0.0005;
          power.max_effect = 0.05;
          power.tolerance = 0.0001;
        }
        const auto estimate = stats::estimate_power(pooled, power);
        out << "power " << key.first << " " << key.second << ": " << estimate.summary
            << " (rebinds pooled as independent samples: optimistic when boots differ)\n";
        json["power"].push_back({{"setup", key.first},
                                 {"metric", key.second},
                                 {"detectable_change", estimate.detectable_change.value_or(-1)},
                                 {"summary", estimate.summary}});
      }
    }
  }
  out << "run directory " << run_dir.string() << "\n";
  std::cout << out.str();
  write_new_file(run_dir / "boot.txt", out.str());
  write_new_file(run_dir / "results.json", json.dump(2) + "\n");
  report::write_junit(run_dir / "junit.xml", {suite});
  if (vm.count("junit")) {
    report::write_junit(vm["junit"].as<std::string>(), {suite});
  }
  if (vm.count("json")) {
    write_file(vm["json"].as<std::string>(), json.dump(2) + "\n");
  }
  return failed ? static_cast<int>(ExitCode::k_check_failed) : 0;
}

}  // namespace kseries::cli
