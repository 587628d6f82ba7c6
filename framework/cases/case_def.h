#pragma once
// A testcase definition (testcases/<name>/case.conf): what the case needs
// from the target, extra kernel command line, how long a boot may take.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kseries::cases {

struct CaseDef {
  std::string name;
  std::filesystem::path dir;
  std::string description;
  std::vector<std::string> needs;  // target features ("pmem", "page-ref-trace")
  std::string cmdline;             // added to the kernel command line
  std::chrono::seconds timeout{900};
  // Test modules (testcases/<dir> with a Kbuild) the guest loads: built
  // against each kernel and put in its initramfs at /testcases/<dir>/.
  std::vector<std::string> modules;
  // The host-side judge of the guest's bulk data: "" (none),
  // "memmap-equivalence" (fast vs slow in one boot), "memmap-vs-base"
  // (each setup's dumps on the series kernel vs the base kernel) or
  // "hugetlb-tails" (HugeTLB folio dumps: invariants, and vs the base).
  std::string oracle;
  // `path:` the code the case exercises and times, as FILE:FUNCTION (the
  // function and the functions of its file it calls) or FILE:
  // mm/mm_init.c:memmap_init_zone_device. A series that changes that code
  // is expected to change what the case sees: its fast-vs-slow comparisons
  // must first show the new path ran, and a timing equal to the base's is
  // suspicious (session/new_path.h).
  std::vector<std::string> path;
  // The case's own setups (default: the four pmem setups for pmem cases);
  // --setups picks among any names, the guest rejects unknown ones.
  std::vector<std::string> setups;
  // QEMU -cpu model under TCG (e.g. "qemu64,+pdpe1gb" for 1 GiB pages);
  // KVM always uses -cpu host.
  std::string tcg_cpu;
  // The clock the case boots under when the user leaves --clock at auto
  // ("wall" or "icount"; "" lets the accelerator decide). A functional
  // suite whose programs wait on time (ndctl's tests on nfit_test did not
  // finish under icount) says "wall": its verdicts are its tests', not
  // its timings.
  std::string clock;
  // `rebinds: N`: the case takes rebinds=N from the host (a matrix cell's
  // rebinds=, --rebinds), N when neither gives one. nullopt: it takes none,
  // and a matrix cell or --rebinds that gives one is refused.
  std::optional<int> rebinds;
  // Guest RAM (QEMU -m, e.g. "16G"); "" keeps the VM's default. For cases
  // that need room, e.g. several boot-time 1 GiB pages beside the pmem.
  std::string memory;
  // `ARCH.cmdline:` / `ARCH.memory:` lines: values for targets of one
  // architecture only, in place of the plain key's (for_arch applies them).
  struct ArchKey {
    std::string arch, key, value;
  };
  std::vector<ArchKey> arch_keys;

  // This case as a target of architecture `arch` ("x86_64", "arm64") runs it.
  CaseDef for_arch(const std::string& arch) const;
};

// Throws Error(k_usage) for an unknown case (listing the known ones) or a
// malformed case.conf (naming file:line).
CaseDef load_case(const std::filesystem::path& testcases_dir, const std::string& name);

// The text of `conf` (testcases_dir/name/case.conf) read into a CaseDef; the
// same errors as load_case for a malformed line.
CaseDef parse_case_conf(const std::string& text, const std::filesystem::path& conf,
                        const std::filesystem::path& testcases_dir, const std::string& name);

}  // namespace kseries::cases
