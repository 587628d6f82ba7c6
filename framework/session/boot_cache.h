#pragma once
// Baseline boots reused under the instruction clock. Under QEMU's icount a
// boot is deterministic in what the timing cases measure (instructions), so
// the base kernel booted with the same kernel image, initramfs, command line
// and QEMU arguments gives the same figures and dumps every time. A gate of
// several revisions boots the base once per cell instead of once per
// revision, and a new revision after an earlier gate boots only itself.
//
// Under the memory clock too (icount plus the memcost plugin, whose records
// and shared object are part of the boot and of its key).
// Only baseline boots (base, reference) under icount that ended cleanly
// (powered off, no finding, no problem) are kept; wall-clock boots never
// are (the pairing within one session is what makes those comparable).
// Entries live in WORKDIR/boot-cache/KEY/ as hard links of the boot's
// console, protocol and bulk files (no copy of the 256 MiB sparse disk),
// with meta.json; the key is a sha256 over the QEMU argv (run directory
// paths blanked; the file prefix, role and round, stays), the kernel
// image's and initramfs' sha256, and the QEMU binary's path, size and mtime.

#include <filesystem>
#include <optional>
#include <string>

#include "qemu/vm.h"

namespace kseries::session {

class BootCache {
 public:
  explicit BootCache(std::filesystem::path dir);

  // The key of a boot of SPEC under ACCEL.
  std::string key(const qemu::VmSpec& spec, const std::string& accel) const;

  // An earlier boot with KEY, its files linked into SPEC's run directory
  // under SPEC's name; nullopt when there is none (or it cannot be linked).
  std::optional<qemu::VmRun> restore(const std::string& key, const qemu::VmSpec& spec,
                                     const std::string& accel, const std::string& accel_note) const;

  // Keeps RUN's files under KEY (a no-op when KEY is already kept or the
  // files cannot be linked: the cache is an optimisation, never an error).
  void store(const std::string& key, const qemu::VmRun& run) const;

  const std::filesystem::path& dir() const { return m_dir; }

 private:
  std::filesystem::path m_dir;
};

}  // namespace kseries::session
