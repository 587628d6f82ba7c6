#include "qemu/vm.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "core/utf8.h"
#include "qemu/guest_liveness.h"
#include "qemu/pmem_layout.h"
#include "sys/file_streams.h"
#include "sys/files.h"

namespace kseries::qemu {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_qemu = "qemu-system-x86_64";
constexpr const char* k_qemu_arm64 = "qemu-system-aarch64";
constexpr std::uint64_t k_virt_ram_base = 1ull << 30;    // QEMU virt: RAM starts at 1 GiB
constexpr std::uint64_t k_arm64_section = 128ull << 20;  // arm64 4K pages: 128 MiB sections
constexpr auto k_probe_timeout = std::chrono::seconds(90);
constexpr auto k_poweroff_grace = std::chrono::seconds(60);
constexpr std::streamoff k_poweroff_tail = 4096;
// How long a guest whose kernel cannot go on ("Fixing recursive fault")
// may stay silent before its boot is ended.
constexpr auto k_dead_guest_quiet = std::chrono::seconds(120);

// Whether the protocol's last lines say the guest powers off ("KSERIES
// poweroff" is the last line its init writes).
bool said_poweroff(const fs::path& protocol) {
  std::ifstream in(protocol, std::ios::binary);
  if (!in) {
    return false;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = std::max<std::streamoff>(0, size - k_poweroff_tail);
  in.seekg(start);
  std::string tail(static_cast<std::size_t>(size - start), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  return tail.find("KSERIES poweroff") != std::string::npos;
}
constexpr std::int64_t k_probe_valid_seconds = 24 * 3600;

void make_sparse_file(const fs::path& path, std::uint64_t bytes) {
  { std::ofstream(path, std::ios::binary | std::ios::trunc); }
  fs::resize_file(path, bytes);
}

bool is_arm64(const VmSpec& spec) { return spec.arch == "arm64"; }

const char* qemu_program(const VmSpec& spec) { return is_arm64(spec) ? k_qemu_arm64 : k_qemu; }

// arm64: RAM kept by the kernel (mem=) and the pmem carved above it.
struct Carve {
  std::uint64_t kept_ram, pmem_base, pmem_size;
};

Carve arm64_carve(const VmSpec& spec) {
  const std::uint64_t ram = parse_memory_size(spec.memory);
  const std::uint64_t pmem = parse_memory_size(spec.pmem_size);
  if (pmem == 0 || pmem >= ram || pmem % k_arm64_section != 0 || ram % k_arm64_section != 0) {
    throw usage_error("arm64: the pmem (" + spec.pmem_size + ") is carved from the guest's RAM (" +
                      spec.memory + "): both must be multiples of 128M, the pmem smaller");
  }
  return {ram - pmem, k_virt_ram_base + ram - pmem, pmem};
}

std::string hex(std::uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// QEMU's own device tree for this machine (-machine dumpdtb=), the pmem
// node added with dtc, written where qemu_argv's -dtb points.
void write_arm64_dtb(ProcessRunner& runner, const VmSpec& spec, std::vector<std::string> argv,
                     const fs::path& dtb) {
  const auto dtb_arg = std::find(argv.begin(), argv.end(), "-dtb");
  argv.erase(dtb_arg, dtb_arg + 2);
  const fs::path dumped = dtb.string() + ".qemu";
  argv.insert(argv.end(), {"-machine", "dumpdtb=" + dumped.string()});
  const fs::path source = dtb.string() + ".dts";
  auto run = [&](std::vector<std::string> command, const std::string& what) {
    ProcessSpec step;
    step.argv = std::move(command);
    step.timeout = std::chrono::seconds(60);
    step.capture = true;
    const auto result = runner.run(step);
    if (!result.ok()) {
      throw infra_error("arm64 device tree: " + what + " failed (" + result.describe() +
                        "): " + valid_utf8(result.err.substr(0, 400)));
    }
  };
  if (!find_program("dtc")) {
    throw usage_error(
        "arm64 pmem needs dtc (apt-get install device-tree-compiler, or "
        "ci/install-deps --arm64)");
  }
  run(argv, std::string(k_qemu_arm64) + " -machine dumpdtb=");
  run({"dtc", "-q", "-I", "dtb", "-O", "dts", "-o", source.string(), dumped.string()},
      "dtc (decompile)");
  write_file(source, read_file(source) + "\n" + arm64_pmem_node(spec));
  run({"dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dtb.string(), source.string()},
      "dtc (compile)");
  std::error_code ec;
  fs::remove(dumped, ec);
}

}  // namespace

std::uint64_t parse_memory_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  const std::string suffix = text.substr(digits);
  int shift = -1;
  if (suffix.empty()) {
    shift = 0;
  } else if (suffix == "K" || suffix == "k") {
    shift = 10;
  } else if (suffix == "M" || suffix == "m") {
    shift = 20;
  } else if (suffix == "G" || suffix == "g") {
    shift = 30;
  } else if (suffix == "T" || suffix == "t") {
    shift = 40;
  }
  if (digits == 0 || digits > 12 || shift < 0) {
    throw usage_error("not a memory size: '" + text + "' (a number with K, M, G or T)");
  }
  return std::stoull(text.substr(0, digits)) << shift;
}

std::string arm64_pmem_node(const VmSpec& spec) {
  if (!is_arm64(spec) || spec.pmem != PmemTopology::k_legacy) {
    return "";
  }
  const Carve carve = arm64_carve(spec);
  return "/ {\n\tpmem@" + hex(carve.pmem_base).substr(2) +
         " {\n\t\tcompatible = \"pmem-region\";\n\t\treg = <" + hex(carve.pmem_base >> 32) + " " +
         hex(carve.pmem_base & 0xffffffffu) + " " + hex(carve.pmem_size >> 32) + " " +
         hex(carve.pmem_size & 0xffffffffu) + ">;\n\t};\n};\n";
}

fs::path kvm_device() {
  if (const char* path = std::getenv("KSERIES_KVM_DEVICE"); path && *path) {
    return path;
  }
  return "/dev/kvm";
}

void check_clock_name(const std::string& requested) {
  if (requested != "auto" && requested != "icount" && requested != "memory" &&
      requested != "wall") {
    throw usage_error("--clock must be auto, icount, memory or wall, not '" + requested + "'");
  }
}

Clock choose_clock(const std::string& requested, const std::string& accel) {
  check_clock_name(requested);
  if (requested == "wall") {
    return Clock::k_wall;
  }
  if (requested == "icount" || requested == "memory") {
    if (accel != "tcg") {
      throw usage_error("--clock " + requested + " needs TCG, and this run uses " + accel +
                        " (--accel tcg, or --clock wall)");
    }
    return requested == "icount" ? Clock::k_icount : Clock::k_memory;
  }
  return accel == "tcg" ? Clock::k_icount : Clock::k_wall;
}

std::string clock_name(Clock clock) {
  return clock == Clock::k_icount ? "icount" : clock == Clock::k_memory ? "memory" : "wall";
}

std::string clock_note(Clock clock) {
  if (clock == Clock::k_memory) {
    return "memory (icount plus the memcost QEMU plugin): each memmap_init_zone_device() call "
           "costed in a model of one core's caches, write-combining buffers and DRAM "
           "(unit mns, modelled ns, from instructions and DRAM bytes); the instruction figures "
           "(vns) beside them; deterministic";
  }
  if (clock == Clock::k_icount) {
    return "icount (QEMU -icount shift=0,sleep=off, single-threaded TCG): times are virtual, "
           "1 vns per executed guest instruction (units vns, vms): exact and deterministic for "
           "how much work the code does, blind to caches, memory bandwidth and non-temporal "
           "stores";
  }
  return "wall (the host's time as the guest sees it): includes memory-system effects, and "
         "under TCG the host's noise and load too";
}

// x86-64 legacy pmem (memmap=SIZE!OFFSET) marks guest RAM as pmem, so the
// RAM must be there: QEMU's pc machine keeps 3 GiB below 4 GiB once it has
// at least 3.5 GiB (pc_piix.c, gigabyte_align) and maps the rest from 4 GiB.
namespace {

void check_legacy_pmem_in_ram(const VmSpec& spec) {
  const std::uint64_t ram = parse_memory_size(spec.memory);
  const std::uint64_t pmem = parse_memory_size(spec.pmem_size);
  const std::uint64_t offset = parse_memory_size(spec.pmem_offset);
  constexpr std::uint64_t k_below_4g = 3ULL << 30, k_split = 7ULL << 29, k_4g = 1ULL << 32;
  const std::uint64_t top = ram >= k_split ? k_4g + (ram - k_below_4g) : ram;
  // A layout that shares its last section with RAM needs that RAM above it.
  for (const auto& region : pmem_regions(offset, pmem, spec.pmem_layouts)) {
    const std::uint64_t end = region.offset + region.size + (64ULL << 20);
    if (region.layout != "aligned" && end > top) {
      throw usage_error("pmem layout " + region.layout + " needs guest RAM up to " +
                        std::to_string(end >> 20) + "M of the physical address space (-m " +
                        spec.memory + " reaches " + std::to_string(top >> 20) +
                        "M): give the guest at least " +
                        std::to_string((k_below_4g + end - k_4g) >> 20) + "M");
    }
  }
  if (offset < k_4g || offset + pmem > top) {
    throw usage_error("legacy pmem memmap=" + spec.pmem_size + "!" + spec.pmem_offset +
                      " lies outside the guest's RAM (-m " + spec.memory +
                      "): give the guest at least " +
                      std::to_string(std::max(k_split, k_below_4g + offset - k_4g + pmem) >> 20) +
                      "M (memory: in the target or the case)");
  }
}

}  // namespace

std::string pmem_cmdline(const VmSpec& spec) {
  if (is_arm64(spec)) {
    return spec.pmem == PmemTopology::k_legacy
               ? "mem=" + std::to_string(arm64_carve(spec).kept_ram >> 20) + "M"
               : "";
  }
  if (spec.pmem == PmemTopology::k_none) {
    return "";
  }
  if (spec.pmem == PmemTopology::k_legacy) {
    std::string text = "memmap=" + spec.pmem_size + "!" + spec.pmem_offset;
    if (spec.pmem_layouts.empty()) {
      return text;  // the command line of every boot before layouts
    }
    const auto regions = pmem_regions(parse_memory_size(spec.pmem_offset),
                                      parse_memory_size(spec.pmem_size), spec.pmem_layouts);
    for (const auto& region : regions) {
      if (region.layout != "aligned") {
        char extra[64];
        std::snprintf(extra, sizeof extra, " memmap=%lluM!0x%llx",
                      static_cast<unsigned long long>(region.size >> 20),
                      static_cast<unsigned long long>(region.offset));
        text += extra;
      }
    }
    return text + " " + layouts_cmdline(regions);
  }
  if (!spec.pmem_layouts.empty()) {
    throw usage_error("pmem layouts (" + spec.pmem_layouts.front() +
                      ") are legacy memmap= regions: not with --pmem nvdimm");
  }
  return "";
}

std::vector<std::string> qemu_argv(const VmSpec& spec, const std::string& accel) {
  const fs::path console = spec.run_dir / (spec.name + ".console.log");
  const fs::path protocol = spec.run_dir / (spec.name + ".protocol.log");
  const fs::path bulk = spec.run_dir / (spec.name + ".bulk.img");
  const bool arm64 = is_arm64(spec);
  if (arm64 && accel != "tcg") {
    throw usage_error("an arm64 guest runs under TCG on this x86_64 host, not " + accel);
  }
  if (arm64 && spec.pmem == PmemTopology::k_nvdimm) {
    throw usage_error(
        "--pmem nvdimm needs ACPI (the NFIT); arm64 guests boot the virt machine "
        "with a device tree here: use --pmem legacy (an of_pmem region)");
  }
  std::vector<std::string> argv = {qemu_program(spec), "-accel", accel};
  if (counts_instructions(spec.clock)) {
    if (accel == "kvm") {
      throw usage_error("the " + clock_name(spec.clock) +
                        " clock needs TCG; under KVM use the wall clock");
    }
    argv.insert(argv.end(), {"-icount", "shift=0,sleep=off"});
  }
  for (const auto& plugin : spec.plugins) {
    argv.insert(argv.end(), {"-plugin", plugin});
  }
  if (arm64) {
    // Guest RAM mapped without a reservation (reserve=off, MAP_NORESERVE):
    // the host's overcommit heuristic refuses a guest larger than its free
    // memory, and the HugeTLB seed's guest (64 boot-time 1 GiB pages, never
    // touched; only their memmap is) is larger than this host.
    argv.insert(argv.end(),
                {"-machine", "virt,gic-version=3,memory-backend=kseries-ram", "-object",
                 "memory-backend-ram,id=kseries-ram,size=" + spec.memory + ",reserve=off", "-cpu",
                 spec.tcg_cpu.empty() ? "cortex-a57" : spec.tcg_cpu});
  } else if (accel == "kvm") {
    argv.insert(argv.end(), {"-cpu", "host"});
  } else if (!spec.tcg_cpu.empty()) {
    argv.insert(argv.end(), {"-cpu", spec.tcg_cpu});
  }
  argv.insert(argv.end(), {"-smp", std::to_string(spec.cpus), "-nodefaults", "-display", "none"});
  if (arm64) {
    argv.insert(argv.end(), {"-no-reboot", "-serial", "file:" + console.string(), "-device",
                             "virtio-serial-pci", "-chardev",
                             "file,id=kseries-protocol,path=" + protocol.string(), "-device",
                             "virtconsole,chardev=kseries-protocol"});
  } else {
    argv.insert(argv.end(), {"-vga", "none", "-no-reboot", "-serial", "file:" + console.string(),
                             "-serial", "file:" + protocol.string()});
  }
  argv.insert(argv.end(), {"-drive", "file=" + bulk.string() + ",format=raw,if=virtio"});
  if (spec.pmem == PmemTopology::k_nvdimm) {
    const fs::path backing = spec.run_dir / (spec.name + ".nvdimm.img");
    argv.insert(argv.end(),
                {"-machine", "pc,nvdimm=on", "-m", spec.memory + ",slots=2,maxmem=64G", "-object",
                 "memory-backend-file,id=nvmem0,share=on,mem-path=" + backing.string() +
                     ",size=" + spec.pmem_size,
                 "-device", "nvdimm,id=nvdimm0,memdev=nvmem0"});
  } else {
    if (!arm64 && spec.pmem == PmemTopology::k_legacy) {
      check_legacy_pmem_in_ram(spec);
    }
    argv.insert(argv.end(), {"-m", spec.memory});
  }
  if (!arm64_pmem_node(spec).empty()) {
    argv.insert(argv.end(), {"-dtb", (spec.run_dir / (spec.name + ".dtb")).string()});
  }
  std::string cmdline = arm64 ? "console=ttyAMA0 kseries.out=/dev/hvc0" : "console=ttyS0";
  cmdline += " nokaslr loglevel=8 panic=-1 " + pmem_cmdline(spec);
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
  if (!find_program(qemu_program(spec))) {
    throw usage_error(std::string(qemu_program(spec)) + " is not installed (" +
                      (is_arm64(spec)
                           ? "apt-get install qemu-system-arm, or ci/install-deps --arm64"
                           : "apt-get install qemu-system-x86, or ci/install-deps") +
                      ")");
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
  const fs::path dtb = spec.run_dir / (spec.name + ".dtb");
  if (!arm64_pmem_node(spec).empty()) {
    write_arm64_dtb(m_runner, spec, run.argv, dtb);
  }
  ProcessSpec process;
  process.argv = run.argv;
  process.timeout = spec.timeout;
  process.capture = true;
  // A guest that said it powers off but whose kernel cannot finish the
  // shutdown (a BUG in an unbind holds the device lock device_shutdown()
  // waits for: seen on debug-vm, 2026-12-06) is ended a minute later, not
  // at the case's timeout; the protocol already holds all it said.
  // A guest whose kernel cannot go on (guest_liveness.h) and then stays
  // silent is ended the same way, saying why.
  auto dead = std::make_shared<DeadGuestWatch>(run.console, run.protocol, k_dead_guest_quiet);
  process.done = [protocol = run.protocol, dead] { return said_poweroff(protocol) || (*dead)(); };
  process.done_grace = k_poweroff_grace;
  std::error_code ec;
  try {
    run.process = m_runner.run(process);
    run.ended_early = dead->why();
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
  if (is_arm64(probe_spec)) {
    if (requested == Accel::k_kvm) {
      throw usage_error("--accel kvm: an arm64 guest cannot use KVM on this x86_64 host");
    }
    m_accel = "tcg";
    m_note = "TCG: an arm64 guest on this x86_64 host (KVM runs the host's architecture only)";
    return;
  }
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
  // Its last lines: the poweroff ends the log (a guest flooding the port
  // must not make the probe read, or fail on, all it wrote).
  const std::string protocol =
      fs::exists(run.protocol) ? read_file_tail(run.protocol, std::size_t{64} << 10) : "";
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
