#pragma once
// A named kernel config (kernel-configs/targets/<name>.target): a base
// config plus fragments, the compiler, what it is for, and what it cannot do
// (so later stages skip those cells with the reason instead of failing).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kernel/kconfig.h"

namespace kseries::kernel {

struct Limitation {
  std::string what;  // a setup or case name ("map=dev", "tracepoint-gating", "pmem")
  std::string reason;
};

struct Target {
  std::string name;
  std::filesystem::path file;
  std::string base = "tinyconfig";               // a make target that writes .config
  std::vector<std::filesystem::path> fragments;  // resolved paths, in merge order
  std::string compiler = "gcc";                  // "gcc" or "clang-N" (built with LLVM=-N)
  std::string purpose;
  std::vector<std::string> features;
  std::vector<Limitation> cannot;
  std::string cmdline;  // extra kernel command line for boots of this target
  // The guest architecture ("x86_64" or "arm64"); another architecture than
  // the host's is cross-built with `cross_compile` (the toolchain prefix,
  // "aarch64-linux-gnu-") and booted under TCG.
  std::string arch = "x86_64";
  std::string cross_compile;
  std::filesystem::path busybox = "/bin/busybox";  // a static busybox for `arch`
  // `struct-page: N`: sizeof(struct page) the built kernel must have (read
  // from the memmap dumper built against it); 0 = not checked.
  std::uint64_t struct_page = 0;
  // Boots of this target (where the command line does not say otherwise):
  // `pmem-size:` the namespace size ("256M"; "" = the boot's default 2G),
  // `cpus:` QEMU -smp (0 = the VM's default), `boot-timeout:` the least
  // deadline per boot in seconds (0 = the case's): a slow guest (KMSAN under
  // TCG) gets a smaller memmap, one vCPU and the time it needs.
  std::string pmem_size;
  int cpus = 0;
  // `memory:` the guest's RAM, QEMU -m ("2G"; "" = the VM's default 8G):
  // KMSAN keeps two bytes of metadata per byte of it. A case's own
  // `memory:` (what the case needs, e.g. hugetlb-timing's 16G) wins.
  std::string memory;
  // `tree-patch: NAME...`: kernel-configs/tree-patches/NAME.patch, test-only
  // changes applied, in order, to every tree this target builds (the base
  // and each revision alike) after the checkout, and part of the kernel
  // cache key: for what no configuration reaches (an 80-byte struct page
  // without a sanitizer, docs/page-sizes.md) or a kernel false positive in
  // the harness's own path (kmsan-ftrace-regs). Each patches its own files.
  std::vector<std::filesystem::path> tree_patches;
  std::chrono::seconds boot_timeout{0};

  bool has_feature(const std::string& feature) const;
  // The reason this target cannot do `what`, or "" if it can.
  std::string limitation(const std::string& what) const;
  // The make variables selecting the architecture and the compiler:
  // {"LLVM=-16"} for clang-16, {"ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-"}
  // for a cross-built arm64 kernel.
  std::vector<std::string> compiler_make_args() const;
  // The compiler executable to look for ("gcc", "clang-16",
  // "aarch64-linux-gnu-gcc").
  std::string compiler_program() const;
  // The C compiler for the guest's static helpers ("gcc", "aarch64-linux-gnu-gcc").
  std::string helper_compiler() const { return cross_compile + "gcc"; }
  // The boot image below the build directory ("arch/x86/boot/bzImage",
  // "arch/arm64/boot/Image").
  std::filesystem::path image_path() const;
};

// Reads kernel-configs/targets/<name>.target below `configs_dir`. Throws
// Error(k_usage) for an unknown target (listing the known ones), a missing
// fragment or a malformed line (naming file:line).
Target load_target(const std::filesystem::path& configs_dir, const std::string& name);
std::vector<std::string> list_targets(const std::filesystem::path& configs_dir);

// The fragments' requests, merged (later fragments win).
std::vector<ConfigRequest> target_requests(const Target& target);

}  // namespace kseries::kernel
