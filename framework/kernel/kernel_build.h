#pragma once
// Building a kernel for a target at a commit, out of tree and cached:
// one source checkout and one build directory per target, reused across
// series and revisions so make recompiles only what changed; ccache below
// the work directory; finished kernels stored under a key of (tree, resolved
// .config, toolchain) so the same build twice returns at once.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "git/store.h"
#include "kernel/build_log.h"
#include "kernel/target.h"
#include "sys/process.h"

namespace kseries::kernel {

struct KernelBuild {
  std::string key;
  std::filesystem::path dir;  // <workdir>/kernels/<key>
  std::filesystem::path image, vmlinux, config, system_map;
  std::string target, commit, tree, compiler;
  std::string arch = "x86_64";  // the target's (kernel ARCH name but x86_64)
  double seconds = 0;           // wall time of the make that produced it
  bool cached = false;
  std::vector<std::string> warnings;  // Diagnostic::key() of every warning in the tree
  // Test modules (testcases/<name>/Kbuild) built against this kernel, by
  // directory name ("memmap-dump" -> .../memmap_dump.ko), and the reason for
  // each that failed to build.
  std::map<std::string, std::filesystem::path> modules;
  std::map<std::string, std::string> module_errors;
};

enum class StepStatus { k_built, k_cached, k_build_failed, k_not_constructible, k_configured };

// The target's `struct-page:` check on a built kernel: "" when the target
// asks nothing or the memmap dumper (test module "memmap-dump") built against
// KERNEL records that size, else the failure ("sizeof(struct page) is 64
// bytes, target T requires 80 (...)"; no module, or one without the record,
// is a failure too: the size is then unknown).
std::string check_struct_page(const Target& target, const KernelBuild& kernel);

struct StepResult {
  StepStatus status = StepStatus::k_build_failed;
  std::optional<KernelBuild> kernel;
  std::vector<Diagnostic> errors;  // compiler/linker errors, in log order
  std::vector<std::string> make_failures;
  std::vector<std::string> dropped;  // explain_dropped() lines
  std::filesystem::path log;
  std::filesystem::path config;  // the resolved .config (k_configured)
  double seconds = 0;
  std::size_t compiled = 0;  // objects compiled by this step
};

class KernelBuilder {
 public:
  using Progress = std::function<void(const std::string&)>;

  KernelBuilder(std::filesystem::path workdir_root, git::Store& store, ProcessRunner& runner,
                std::size_t jobs);

  // Checks `commit` out for `target`, configures (base + merge_config.sh +
  // olddefconfig), verifies every requested symbol, then builds or reuses the
  // cached kernel. Unknown symbols in a fragment and a missing compiler throw
  // Error(k_usage); a full disk throws Error(k_infrastructure). A target with
  // `struct-page: N` fails the step (k_build_failed, a make_failures line,
  // no kernel) unless the memmap dumper built against the kernel says sizeof(struct
  // page) is N (check_struct_page()).
  StepResult build(const Target& target, const git_oid& commit,
                   const std::filesystem::path& log_file, const Progress& progress);

  // The kernel built earlier for (target, commit), if any.
  std::optional<KernelBuild> find(const Target& target, const git_oid& commit) const;

  std::filesystem::path target_dir(const Target& target) const;

  // Out-of-tree test modules (directories with a Kbuild) to build against
  // every kernel, right after its make, while the build directory holds it.
  // A cached kernel without one of them (built before, or the module source
  // changed) is brought back into the build directory by an incremental make
  // (ccache hits) so the module sees exactly its headers and .config.
  void set_test_modules(std::vector<std::filesystem::path> source_dirs);

  // Stop after the configuration is resolved and verified (k_configured or
  // k_not_constructible): a quick check of a target without the make.
  void set_configure_only(bool configure_only) { m_configure_only = configure_only; }

 private:
  std::vector<std::string> make_command(const Target& target,
                                        const std::vector<std::string>& goals) const;
  ProcessSpec spec(std::vector<std::string> argv, const std::filesystem::path& log) const;
  // ccache under the work directory and reproducible version strings (and
  // ccache hits on init/version.c): for make and for test-module builds.
  std::map<std::string, std::string> build_env() const;
  std::string compiler_version(const Target& target) const;
  std::vector<std::string> update_warning_state(const Target& target, const BuildLog& log) const;
  std::optional<KernelBuild> load(const std::string& key) const;
  bool has_modules(const KernelBuild& kernel) const;
  std::filesystem::path module_dir(const std::filesystem::path& kernel_dir,
                                   const std::filesystem::path& source) const;
  void build_modules(const Target& target, const std::filesystem::path& kernel_dir,
                     const Progress& progress) const;
  StepResult build_kernel(const Target& target, const git_oid& commit,
                          const std::filesystem::path& log_file, const Progress& progress);

  std::filesystem::path m_root;
  git::Store& m_store;
  ProcessRunner& m_runner;
  std::size_t m_jobs;
  std::vector<std::filesystem::path> m_modules;
  bool m_configure_only = false;
};

}  // namespace kseries::kernel
