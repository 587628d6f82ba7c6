#include "session/session_runner.h"

#include <algorithm>

#include "core/error.h"
#include "kseries_source_dir.h"
#include "qemu/pmem_layout.h"
#include "session/boot_session.h"
#include "session/kernel_stage.h"

namespace kseries::session {

namespace fs = std::filesystem;

namespace {

SessionOutcome skipped(const SessionFacts& facts, const CasePlan& plan) {
  SessionOutcome outcome;
  outcome.end = SessionEnd::k_skipped;
  auto& report = outcome.report;
  if (plan.skipped) {
    outcome.why = *plan.skipped;
    report.text =
        "skipped " + facts.test_case + " on " + facts.target + ": " + *plan.skipped + "\n";
    report.suite.cases.push_back({"boot." + facts.target,
                                  facts.test_case,
                                  0,
                                  report::CaseStatus::k_skipped,
                                  *plan.skipped,
                                  "",
                                  {},
                                  ""});
  } else {
    outcome.why = "every setup asked for is one target " + facts.target + " cannot do";
  }
  add_skipped_setups(facts, report.text, report.suite);
  report.record.target = facts.target;
  report.record.test_case = facts.test_case;
  report.record.skipped = outcome.why;
  return outcome;
}

// The clock this session boots under: the memory clock's plugin is for the
// timing cases and the oracles that read it; the other oracle cases (dumps)
// run under icount when the memory clock is asked for; a case's own
// `clock:` when the user left it to kseries.
std::string session_clock(const SessionRequest& request, const Oracle* oracle) {
  if (oracle && oracle->needs_memory_plugin()) {
    return "memory";
  }
  if (request.clock == "auto" && !request.test_case.clock.empty()) {
    return request.test_case.clock;
  }
  if (oracle && request.clock == "memory") {
    return "icount";
  }
  return request.clock;
}

// The memory clock's models: the profile scaled to this namespace's memmap
// (64-byte struct pages) unless asked otherwise, then one per swept LLC size.
std::vector<cases::MemoryModel> memory_models(const SessionRequest& request) {
  if (request.target.arch != "x86_64") {
    throw usage_error(
        "the memory clock models an x86-64 core (its plugin decodes x86 "
        "instructions); target " +
        request.target.name + " is " + request.target.arch);
  }
  // Without --memory-profile (a case whose oracle needs the plugin), the
  // bundled default.
  const auto base =
      request.memory.profile
          ? *request.memory.profile
          : memcost::load_profile("icelake-sp", std::filesystem::path(KSERIES_SOURCE_DIR) /
                                                    "kernel-configs" / "machines");
  const std::uint64_t page_bytes = request.target.struct_page ? request.target.struct_page : 64;
  const std::uint64_t memmap = qemu::parse_memory_size(request.pmem_size) / 4096 * page_bytes;
  const auto profile = request.memory.unscaled ? base : memcost::scaled_to(base, memmap);
  std::vector<cases::MemoryModel> models{{profile.name, profile}};
  for (const auto llc : request.memory.llc_sweep) {
    models.push_back({"llc" + std::to_string(llc >> 10) + "k", memcost::with_llc(profile, llc)});
  }
  return models;
}

// The VM a session boots: pmem as the case needs it, the target's CPUs and
// memory (or the case's), the first kernel.
void describe_vm(const SessionRequest& request, const BootSettings& settings, bool pmem_case,
                 const KernelUnderTest& first, qemu::VmSpec& vm) {
  vm.run_dir = request.run_dir;
  vm.pmem = !pmem_case                 ? qemu::PmemTopology::k_none
            : request.pmem == "nvdimm" ? qemu::PmemTopology::k_nvdimm
                                       : qemu::PmemTopology::k_legacy;
  vm.pmem_size = request.pmem_size;
  vm.timeout = settings.timeout;
  if (settings.cpus > 0) {
    vm.cpus = settings.cpus;
  }
  vm.kernel = first.build.image;
  vm.initramfs = first.initramfs;
  vm.arch = request.target.arch;
  if (request.target.arch == "x86_64") {
    vm.tcg_cpu = request.test_case.tcg_cpu;  // an x86 CPU model (case.conf tcg-cpu:)
  }
  if (!settings.memory.empty()) {
    vm.memory = settings.memory;
  }
}

// The accelerator, the clock, and under the memory clock its models.
void choose_clock(const SessionRequest& request, const Oracle* oracle, qemu::Vm& vm,
                  SessionSpec& spec, Status& status) {
  vm.choose_accel(request.accel, spec.vm);
  status.progress("accelerator: " + vm.accel_note());
  spec.vm.clock = qemu::choose_clock(session_clock(request, oracle), vm.accel());
  status.progress("clock: " + qemu::clock_note(spec.vm.clock));
  if (spec.vm.clock == qemu::Clock::k_memory) {
    spec.memory_models = memory_models(request);
    for (const auto& model : spec.memory_models) {
      status.progress("memory model " + model.label + ": " + memcost::describe(model.profile));
    }
  }
}

// A coverage target's boots record what they execute, unless the memory
// plugin already runs (one plugin a boot: the case's ordering or clock).
void choose_cover(const SessionRequest& request, SessionSpec& spec, Status& status) {
  const auto& features = request.target.features;
  if (std::find(features.begin(), features.end(), "coverage") == features.end() || !request.cover) {
    return;
  }
  spec.cover = spec.vm.clock != qemu::Clock::k_memory;
  status.progress(spec.cover ? "coverage: each boot writes the kernel addresses it executed "
                               "(the memcost plugin's cover mode) to RUN_DIR/ROLE-N.cover"
                             : "coverage: no cover file (the memory plugin runs in this cell)");
}

// Where each namespace of a legacy x86-64 pmem region lies, for the report.
void note_pmem_layouts(bool pmem_case, const qemu::VmSpec& vm, SessionFacts& facts,
                       Status& status) {
  if (!pmem_case || vm.pmem != qemu::PmemTopology::k_legacy || vm.arch != "x86_64") {
    return;
  }
  for (const auto& region :
       qemu::pmem_regions(qemu::parse_memory_size(vm.pmem_offset),
                          qemu::parse_memory_size(vm.pmem_size), vm.pmem_layouts)) {
    facts.layouts.push_back(region.layout + ": " + std::to_string(region.size >> 20) + "M at " +
                            std::to_string(region.offset >> 20) + "M");
    status.progress("pmem layout " + facts.layouts.back());
  }
}

// Which of the case's path the series changes: where its new code must run.
void choose_new_path(const SessionRequest& request, SessionSpec& spec, SessionFacts& facts,
                     Status& status) {
  spec.new_path =
      new_path_for(request.target, request.candidate_changes.value_or(std::vector<std::string>{}));
  facts.new_path = spec.new_path;
  if (!request.candidate_changes || request.test_case.path.empty()) {
    return;
  }
  status.progress(spec.new_path.changed.empty()
                      ? "path: the series changes none of the case's path (" +
                            request.test_case.path.front() +
                            "): its new code, if any, is not expected there"
                      : "path: the series changes " + spec.new_path.files() +
                            (spec.new_path.slow_path_by_contract
                                 ? ", and the target keeps it on the slow path by contract"
                                 : ": its new code must run there"));
}

}  // namespace

BootSettings boot_settings(const SessionRequest& request) {
  BootSettings settings;
  settings.pmem_size = !request.pmem_size_given && !request.target.pmem_size.empty()
                           ? request.target.pmem_size
                           : request.pmem_size;
  settings.cpus = request.target.cpus;
  const auto case_memory = request.test_case.for_arch(request.target.arch).memory;
  settings.memory = case_memory.empty() ? request.target.memory : case_memory;
  settings.timeout =
      request.timeout.value_or(std::max(request.test_case.timeout, request.target.boot_timeout));
  return settings;
}

SessionOutcome run_session(SessionRequest request, Services& services, Status& status) {
  const BootSettings settings = boot_settings(request);
  request.pmem_size = settings.pmem_size;
  // pmem is a need of a case, not of every VM: a case that does not need it
  // boots with its RAM whole.
  const auto& needs = request.test_case.needs;
  const bool pmem_case = std::find(needs.begin(), needs.end(), "pmem") != needs.end();
  if (!pmem_case) {
    request.pmem = "none";
  }
  // Plan: what the case does on this target, before anything is built.
  const Oracle* oracle = find_oracle(request.test_case.oracle);
  const CasePlan plan = plan_case(request.target, request.test_case, request.case_options);
  SessionFacts facts{request.target.name,
                     request.test_case.name,
                     oracle,
                     "",
                     "",
                     qemu::Clock::k_wall,
                     false,
                     request.pmem,
                     request.pmem_size,
                     request.run_dir,
                     plan.skipped_setups};
  if (plan.skipped || plan.nothing_to_boot()) {
    return skipped(facts, plan);
  }
  if (oracle && oracle->needs_memory_plugin() && request.target.arch != "x86_64") {
    // The plugin decodes x86-64; elsewhere memcpy_nontemporal() is the
    // generic memcpy() (v10 6/8), so there is no non-temporal store to order.
    CasePlan not_here = plan;
    not_here.skipped = "not applicable on " + request.target.arch +
                       ": the memcost plugin decodes x86-64 instructions, and this "
                       "architecture's memcpy_nontemporal() is the generic memcpy() (no "
                       "non-temporal store to order)";
    return skipped(facts, not_here);
  }

  // Build: the kernels and the test modules the case loads.
  SessionOutcome outcome;
  outcome.kernels = std::move(request.kernels);
  auto& kernels = outcome.kernels;
  const auto module_dirs = kernel_module_dirs(request.test_case, request.target, request.testcases);
  if (auto why = build_kernels(kernels, request.target, module_dirs, services.builder,
                               request.run_dir, status)) {
    outcome.end = SessionEnd::k_not_built;
    outcome.why = std::move(*why);
    return outcome;
  }

  // Guest: initramfs per kernel, accelerator and clock.
  build_initramfs_for(kernels, request.target, request.test_case, request.testcases,
                      services.workdir_root / "initramfs", services.runner);
  qemu::Vm vm(services.runner, services.workdir_root);
  SessionSpec spec;
  describe_vm(request, settings, pmem_case, kernels.front(), spec.vm);
  choose_clock(request, oracle, vm, spec, status);
  choose_cover(request, spec, status);
  spec.guest_cmdline = plan.guest_cmdline;
  spec.setups = plan.setups;
  spec.vm.pmem_layouts = plan.layouts;
  note_pmem_layouts(pmem_case, spec.vm, facts, status);
  spec.oracle = oracle;
  spec.timing_only = oracle == nullptr;
  spec.boots = request.boots;
  // Under the instruction clock one boot a side decides unless a verdict is
  // unknown; then a second pair checks that the boots agree.
  spec.adaptive =
      !request.boots_given && qemu::counts_instructions(spec.vm.clock) && kernels.size() == 2;
  spec.keep_bulk = request.keep_bulk;
  choose_new_path(request, spec, facts, status);
  const BootCache cache(services.workdir_root / "boot-cache");
  if (request.reuse_baseline_boots || request.reuse_every_boot) {
    spec.boot_cache = &cache;
    spec.cache_every_kernel = request.reuse_every_boot;
  }
  spec.label = "(" + vm.accel() + ", " +
               (pmem_case ? request.pmem + " pmem " + request.pmem_size : "no pmem") + ")";

  // Boot, judge, render. An oracle's verdicts that need the other kernels'
  // evidence (did the series' new path run?) are settled once all booted.
  auto result = run_boots(kernels, spec, vm, status);
  if (oracle) {
    oracle->conclude(result.records, status);
  }
  facts.accel = vm.accel();
  facts.accel_note = vm.accel_note();
  facts.clock = spec.vm.clock;
  if (!spec.memory_models.empty()) {
    facts.memory_model = memcost::describe(spec.memory_models.front().profile);
    facts.memory_profile = spec.memory_models.front().profile;
  }
  facts.adaptive = spec.adaptive;
  outcome.end = SessionEnd::k_booted;
  outcome.report = render_session(facts, kernels, result, status);
  outcome.boots = std::move(result.records);
  return outcome;
}

}  // namespace kseries::session
