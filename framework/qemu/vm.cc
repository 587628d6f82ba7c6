#include "qemu/vm.h"

#include <sys/stat.h>

#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "core/utf8.h"
#include "sys/files.h"

namespace kseries::qemu {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_qemu = "qemu-system-x86_64";
constexpr auto k_probe_timeout = std::chrono::seconds(90);
constexpr std::int64_t k_probe_valid_seconds = 24 * 3600;

void make_sparse_file(const fs::path& path, std::uint64_t bytes) {
  { std::ofstream(path, std::ios::binary | std::ios::trunc); }
  fs::resize_file(path, bytes);
}

}  // namespace

fs::path kvm_device() {
  if (const char* path = std::getenv("KSERIES_KVM_DEVICE"); path && *path) {
    return path;
  }
  return "/dev/kvm";
}

Clock choose_clock(const std::string& requested, const std::string& accel) {
  if (requested == "wall") {
    return Clock::k_wall;
  }
  if (requested == "icount") {
    if (accel != "tcg") {
      throw usage_error("--clock icount needs TCG, and this run uses " + accel +
                        " (--accel tcg, or --clock wall)");
    }
    return Clock::k_icount;
  }
  if (requested == "auto") {
    return accel == "tcg" ? Clock::k_icount : Clock::k_wall;
  }
  throw usage_error("--clock must be auto, icount or wall, not '" + requested + "'");
}

std::string clock_name(Clock clock) { return clock == Clock::k_icount ? "icount" : "wall"; }

std::string clock_note(Clock clock) {
  if (clock == Clock::k_icount) {
    return "icount (QEMU -icount shift=0,sleep=off, single-threaded TCG): times are virtual, "
           "1 vns per executed guest instruction (units vns, vms): exact and deterministic for "
           "how much work the code does, blind to caches, memory bandwidth and non-temporal "
           "stores";
  }
  return "wall (the host's time as the guest sees it): includes memory-system effects, and "
         "under TCG the host's noise and load too";
}

std::string pmem_cmdline(const VmSpec& spec) {
  if (spec.pmem == PmemTopology::k_legacy) {
    return "memmap=" + spec.pmem_size + "!" + spec.pmem_offset;
  }
  return "";
}

std::vector<std::string> qemu_argv(const VmSpec& spec, const std::string& accel) {
  const fs::path console = spec.run_dir / (spec.name + ".console.log");
  const fs::path protocol = spec.run_dir / (spec.name + ".protocol.log");
  const fs::path bulk = spec.run_dir / (spec.name + ".bulk.img");
  std::vector<std::string> argv = {k_qemu, "-accel", accel};
  if (spec.clock == Clock::k_icount) {
    if (accel == "kvm") {
      throw usage_error("the icount clock needs TCG; under KVM use the wall clock");
    }
    argv.insert(argv.end(), {"-icount", "shift=0,sleep=off"});
  }
  if (accel == "kvm") {
    argv.insert(argv.end(), {"-cpu", "host"});
  } else if (!spec.tcg_cpu.empty()) {
    argv.insert(argv.end(), {"-cpu", spec.tcg_cpu});
  }
  argv.insert(argv.end(), {"-smp", std::to_string(spec.cpus), "-nodefaults", "-display", "none",
                           "-vga", "none", "-no-reboot", "-serial", "file:" + console.string(),
                           "-serial", "file:" + protocol.string(), "-drive",
                           "file=" + bulk.string() + ",format=raw,if=virtio"});
  if (spec.pmem == PmemTopology::k_nvdimm) {
    const fs::path backing = spec.run_dir / (spec.name + ".nvdimm.img");
    argv.insert(argv.end(),
                {"-machine", "pc,nvdimm=on", "-m", spec.memory + ",slots=2,maxmem=64G", "-object",
                 "memory-backend-file,id=nvmem0,share=on,mem-path=" + backing.string() +
                     ",size=" + spec.pmem_size,
                 "-device", "nvdimm,id=nvdimm0,memdev=nvmem0"});
  } else {
    argv.insert(argv.end(), {"-m", spec.memory});
  }
  std::string cmdline = "console=ttyS0 nokaslr loglevel=8 panic=-1 " + pmem_cmdline(spec);
  if (!spec.cmdline.empty()) {
    cmdline += " " + spec.cmdline;
  }
  argv.insert(argv.end(), {"-kernel", spec.kernel.string(), "-initrd", spec.initramfs.string(),
                           "-append", cmdline});
  return argv;
}

Vm::Vm(ProcessRunner& runner, fs::path workdir_root)
    : m_runner(runner), m_root(std::move(workdir_root)) {}

VmRun Vm::boot(const VmSpec& spec) {
  if (!find_program(k_qemu)) {
    throw usage_error(std::string(k_qemu) +
                      " is not installed (apt-get install qemu-system-x86, or ci/install-deps)");
  }
  for (const auto& file : {spec.kernel, spec.initramfs}) {
    if (!fs::is_regular_file(file)) {
      throw usage_error("cannot boot: " + file.string() + " does not exist");
    }
  }
  fs::create_directories(spec.run_dir);
  VmRun run;
  run.accel = m_accel;
  run.accel_note = m_note;
  run.console = spec.run_dir / (spec.name + ".console.log");
  run.protocol = spec.run_dir / (spec.name + ".protocol.log");
  run.bulk = spec.run_dir / (spec.name + ".bulk.img");
  make_sparse_file(run.bulk, spec.bulk_bytes);
  const fs::path backing = spec.run_dir / (spec.name + ".nvdimm.img");
  if (spec.pmem == PmemTopology::k_nvdimm) {
    make_sparse_file(backing, 2ull << 30);  // resized by QEMU to pmem_size
  }
  run.argv = qemu_argv(spec, m_accel);
  ProcessSpec process;
  process.argv = run.argv;
  process.timeout = spec.timeout;
  process.capture = true;
  std::error_code ec;
  try {
    run.process = m_runner.run(process);
  } catch (const Error&) {
    // Interrupted: nothing will read the disks of this boot.
    fs::remove(backing, ec);
    fs::remove(run.bulk, ec);
    throw;
  }
  fs::remove(backing, ec);  // gigabytes of emulated pmem: not a result
  return run;
}

void Vm::choose_accel(Accel requested, const VmSpec& probe_spec) {
  if (requested == Accel::k_tcg) {
    m_accel = "tcg";
    m_note = "TCG (--accel tcg)";
    return;
  }
  const fs::path device = kvm_device();
  if (!fs::exists(device)) {
    if (requested == Accel::k_kvm) {
      throw usage_error("--accel kvm: " + device.string() + " does not exist on this machine");
    }
    m_accel = "tcg";
    m_note = "TCG: " + device.string() + " does not exist";
    return;
  }
  // A cached probe result: KVM's fate does not change within a day.
  const fs::path cache = m_root / "kvm-probe.json";
  struct stat qemu_stat {};
  const auto qemu_path = find_program(k_qemu);
  if (qemu_path) {
    ::stat(qemu_path->c_str(), &qemu_stat);
  }
  if (requested == Accel::k_auto && fs::exists(cache)) {
    const auto json = nlohmann::json::parse(read_file(cache), nullptr, false);
    if (!json.is_discarded() && json.value("qemu_mtime", 0L) == qemu_stat.st_mtime &&
        json.value("device", "") == device.string() &&
        std::time(nullptr) - json.value("time", 0L) < k_probe_valid_seconds) {
      m_accel = json.value("accel", "tcg");
      m_note = json.value("note", "") + " (probed " +
               std::to_string((std::time(nullptr) - json.value("time", 0L)) / 60) + " min ago)";
      return;
    }
  }
  VmSpec probe = probe_spec;
  probe.name = "kvm-probe";
  probe.cmdline = "kseries.case=none";
  probe.timeout = k_probe_timeout;
  probe.bulk_bytes = 1 << 20;
  probe.clock = Clock::k_wall;
  m_accel = "kvm";
  const VmRun run = boot(probe);
  std::error_code ec;
  fs::remove(run.bulk, ec);  // the probe writes nothing there
  const std::string protocol = fs::exists(run.protocol) ? read_file(run.protocol) : "";
  const bool ok = protocol.find("KSERIES poweroff") != std::string::npos;
  if (ok) {
    m_accel = "kvm";
    m_note = "KVM (probe boot powered off cleanly)";
  } else {
    std::string why = run.process.describe();
    const auto err_lines = split_lines(run.process.err);
    if (!err_lines.empty()) {
      why += ": " + valid_utf8(err_lines.front());
    }
    if (requested == Accel::k_kvm) {
      throw infra_error("--accel kvm: KVM does not work here (" + why + ")");
    }
    m_accel = "tcg";
    m_note = "TCG: KVM failed (" + why + ")";
  }
  nlohmann::json json = {{"accel", m_accel},
                         {"note", m_note},
                         {"time", static_cast<long>(std::time(nullptr))},
                         {"qemu_mtime", static_cast<long>(qemu_stat.st_mtime)},
                         {"device", device.string()}};
  write_file(cache, json_text(json));
}

}  // namespace kseries::qemu
