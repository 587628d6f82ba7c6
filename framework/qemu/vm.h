#pragma once
// One QEMU boot of a kernel with emulated persistent memory: the serial
// console (ttyS0) and the protocol port (ttyS1) to files in the run
// directory, a raw virtio disk for bulk data, a deadline after which the
// whole process group is killed. KVM is tried and TCG used when it fails;
// every result says which ran.
//
// arm64 guests boot on QEMU's virt machine under TCG (no KVM across
// architectures): the console on the PL011 (ttyAMA0), the protocol port on a
// virtio console (hvc0, named to /init by kseries.out=), and the pmem carved
// from the top of RAM as x86's memmap= does: the kernel gets mem=RAM-pmem
// and the device tree a "pmem-region" node (of_pmem) for the rest, written
// with dtc into QEMU's own dumped tree.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "sys/process.h"

namespace kseries::qemu {

enum class Accel { k_auto, k_kvm, k_tcg };
// Where the guest's pmem comes from: legacy memmap= (x86) or a carved
// of_pmem region (arm64), an emulated NVDIMM (ACPI NFIT), or none: a case
// that does not need pmem boots with its RAM whole (no hole in ZONE_NORMAL,
// so boot-time code walks the zone as on a machine without pmem).
enum class PmemTopology { k_legacy, k_nvdimm, k_none };
// What the guest's clock counts. k_icount (TCG only): QEMU's
// `-icount shift=0,sleep=off`, 1 virtual ns per executed guest instruction,
// idle time skipped, single-threaded TCG: deterministic, blind to the memory
// system. k_memory (TCG only): icount plus the memcost plugin, which costs
// each memmap_init_zone_device() call in a model of one core's caches and
// DRAM (framework/memcost/): deterministic too, and it sees what
// non-temporal stores save. k_wall: the host's time as the guest sees it
// (noisy under TCG).
enum class Clock { k_wall, k_icount, k_memory };

// icount or memory: the guest's clock counts instructions, so boots are
// deterministic.
inline bool counts_instructions(Clock clock) { return clock != Clock::k_wall; }

struct VmSpec {
  std::string arch = "x86_64";  // or "arm64" (qemu-system-aarch64 -M virt, TCG)
  std::filesystem::path kernel;
  std::filesystem::path initramfs;
  std::filesystem::path run_dir;  // console.log, protocol.log, bulk.img go here
  std::string name = "boot";      // file prefix inside run_dir
  std::string cmdline;            // after kseries' own console/pmem arguments
  std::string memory = "8G";
  int cpus = 2;
  std::string tcg_cpu;  // -cpu under TCG ("" = QEMU's default); KVM uses -cpu host
  PmemTopology pmem = PmemTopology::k_legacy;
  std::string pmem_size = "2G";
  std::string pmem_offset = "4G";  // legacy only: memmap=SIZE!OFFSET
  // Legacy x86 only: the layouts besides the aligned region the setups name
  // ("share-first", "share-last": qemu/pmem_layout.h), each its own region.
  std::vector<std::string> pmem_layouts;
  std::uint64_t bulk_bytes = 256ull << 20;
  Clock clock = Clock::k_wall;
  // -plugin arguments ("file=PATH,key=value,..."), one per plugin.
  std::vector<std::string> plugins;
  std::chrono::seconds timeout{600};
};

struct VmRun {
  std::string accel;       // "tcg" or "kvm"
  std::string accel_note;  // why: "KVM failed: ...", "--accel tcg"
  std::vector<std::string> argv;
  ProcessResult process;
  std::filesystem::path console;
  std::filesystem::path protocol;
  std::filesystem::path bulk;
  // Why kseries ended the boot before the guest powered off or timed out
  // (qemu/guest_liveness.h), "" when it did not.
  std::string ended_early;
};

// The argv for a boot (exposed for tests and for the benchmark). Throws
// Error(k_usage) for the icount clock under KVM (icount needs TCG).
std::vector<std::string> qemu_argv(const VmSpec& spec, const std::string& accel);

// Where KVM is probed: /dev/kvm, or $KSERIES_KVM_DEVICE when set (tests point
// it at a path they control, so each accelerator path runs on every machine).
std::filesystem::path kvm_device();

// The clock for a run: "auto" is icount under TCG (deterministic) and wall
// under KVM; "icount" or "memory" under KVM and any other word are usage
// errors.
Clock choose_clock(const std::string& requested, const std::string& accel);
// Error(k_usage) unless REQUESTED names a clock (auto icount memory wall), so
// a typo fails before any work.
void check_clock_name(const std::string& requested);
std::string clock_name(Clock clock);  // "icount", "memory" or "wall"
// One sentence: what figures under CLOCK can and cannot see.
std::string clock_note(Clock clock);

// The pmem part of the kernel command line ("memmap=2G!4G" for legacy on
// x86, "mem=6144M" on arm64, where the device tree describes the pmem).
std::string pmem_cmdline(const VmSpec& spec);

// arm64: the device tree node of the carved pmem ("pmem@1c0000000 {...}"),
// added to QEMU's dumped tree; "" when the spec has no carved pmem.
std::string arm64_pmem_node(const VmSpec& spec);

// "8G", "512M", "1024K" or a byte count, in bytes. Throws Error(k_usage).
std::uint64_t parse_memory_size(const std::string& text);

class Vm {
 public:
  Vm(ProcessRunner& runner, std::filesystem::path workdir_root);
  // Decides the accelerator once per process: TCG when asked or when
  // kvm_device() does not exist, else a short KVM probe boot (cached for a
  // day in the work directory, per QEMU binary and device path).
  void choose_accel(Accel requested, const VmSpec& probe_spec);
  const std::string& accel() const { return m_accel; }
  const std::string& accel_note() const { return m_note; }
  VmRun boot(const VmSpec& spec);

 private:
  ProcessRunner& m_runner;
  std::filesystem::path m_root;
  std::string m_accel = "tcg";
  std::string m_note = "not probed";
};

}  // namespace kseries::qemu
