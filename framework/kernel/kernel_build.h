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
#include "kernel/source_check.h"
#include "kernel/target.h"
#include "sys/file_lock.h"
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

using Progress = std::function<void(const std::string&)>;

// One build: what to build and how, given whole to each call (no builder
// state carries from one build to the next).
struct BuildRequest {
  const Target* target = nullptr;
  git_oid commit{};
  std::filesystem::path log{};  // make's (and the configuration's) output
  // Out-of-tree test modules (directories with a Kbuild) to build against
  // the kernel, right after its make, while the build directory holds it.
  // A cached kernel without one of them (built before, or the module source
  // changed) is brought back into the build directory by an incremental make
  // (ccache hits) so the module sees exactly its headers and .config.
  std::vector<std::filesystem::path> test_modules{};
  // Stop after the configuration is resolved and verified (k_configured or
  // k_not_constructible): a quick check of a target without the make.
  bool configure_only = false;
  Progress progress = [](const std::string&) {};
};

// What the gate, the bisection and the sessions need of a kernel builder:
// the seam their unit tests fake (framework/testing/fake_builds.h).
class KernelBuilds {
 public:
  virtual ~KernelBuilds() = default;
  // Checks the request's commit out for its target, configures (base +
  // merge_config.sh + olddefconfig), verifies every requested symbol, then
  // builds or reuses the cached kernel. Unknown symbols in a fragment and a
  // missing compiler throw Error(k_usage); a full disk throws
  // Error(k_infrastructure).
  virtual StepResult build(const BuildRequest& request) = 0;
  // The kernel built earlier for (target, commit), if any.
  virtual std::optional<KernelBuild> find(const Target& target, const git_oid& commit) const = 0;
  // The checkout TARGET's kernels are built from (its Kconfig files and
  // headers, for the coverage reasons); "" when there is none.
  virtual std::filesystem::path source_dir(const Target&) const { return {}; }
};

class KernelBuilder : public KernelBuilds {
 public:
  using Progress = kernel::Progress;

  KernelBuilder(std::filesystem::path workdir_root, git::Store& store, ProcessRunner& runner,
                std::size_t jobs);

  // The stages, in order: the toolchain, the cache by request, the
  // checkout, the configuration, the cache by .config, make, the record.
  // A target with `struct-page: N` fails the step (k_build_failed, no
  // kernel) unless the memmap dumper built against the kernel says
  // sizeof(struct page) is N (check_struct_page()).
  StepResult build(const BuildRequest& request) override;
  std::optional<KernelBuild> find(const Target& target, const git_oid& commit) const override;

  std::filesystem::path target_dir(const Target& target) const;
  std::filesystem::path source_dir(const Target& target) const override {
    return target_dir(target) / "src";
  }

 private:
  struct Job;  // one request's facts, computed once (kernel_build.cc)

  StepResult run_stages(const BuildRequest& request);
  StepResult build_locked(Job& job);
  Job plan(const BuildRequest& request) const;
  std::optional<StepResult> cached_by_request(const Job& job) const;
  void check_out(Job& job);
  void apply_tree_patch(Job& job);
  std::optional<StepResult> configure(Job& job);
  std::optional<StepResult> cached_by_config(const Job& job) const;
  bool trusted(const Job& job, const KernelBuild& kernel) const;
  StepResult make(const Job& job, bool known);
  void clean_after_killed_make(const Job& job);
  FileLock take_build_slot(const Job& job) const;
  ProcessResult run_make(const Job& job, const ProcessSpec& command);
  void check_unchanged(const Job& job, const std::string& when) const;
  SourceCheck check_sources_read(const Job& job) const;
  SourceCheck throw_if_not_commit(const Job& job, const std::vector<std::string>& paths) const;
  void restore_sources(Job& job, const std::vector<std::string>& paths);
  StepResult record(const Job& job, const SourceCheck& sources, std::size_t compiled,
                    double make_seconds, const std::vector<std::string>& warnings) const;
  StepResult record_cached(const Job& job) const;

  std::vector<std::string> make_command(const Target& target,
                                        const std::vector<std::string>& goals) const;
  ProcessSpec spec(std::vector<std::string> argv, const std::filesystem::path& log) const;
  // ccache under the work directory and reproducible version strings (and
  // ccache hits on init/version.c): for make and for test-module builds.
  std::map<std::string, std::string> build_env() const;
  std::string compiler_version(const Target& target) const;
  std::vector<std::string> update_warning_state(const Target& target, const BuildLog& log) const;
  std::optional<KernelBuild> load(const std::string& key,
                                  const std::vector<std::filesystem::path>& modules) const;
  bool has_modules(const KernelBuild& kernel,
                   const std::vector<std::filesystem::path>& modules) const;
  std::filesystem::path module_dir(const std::filesystem::path& kernel_dir,
                                   const std::filesystem::path& source) const;
  void build_modules(const BuildRequest& request, const std::filesystem::path& kernel_dir) const;

  std::filesystem::path m_root;
  git::Store& m_store;
  ProcessRunner& m_runner;
  std::size_t m_jobs;
};

}  // namespace kseries::kernel
