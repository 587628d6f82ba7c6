#include "kernel/kernel_build.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/elapsed.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "core/utf8.h"
#include "git/checkout.h"
#include "git/tree_patch.h"
#include "kernel/elf_section.h"
#include "kernel/kconfig_index.h"
#include "kernel/kernel_build_job.h"
#include "kernel/kernel_verify.h"
#include "kernel/module_build.h"
#include "kernel/source_check.h"
#include "kernel/test_payload.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto k_make_timeout = std::chrono::hours(4);
constexpr auto k_config_timeout = std::chrono::minutes(10);
constexpr auto k_make_grace = std::chrono::seconds(10);
constexpr auto k_progress_every = std::chrono::seconds(20);

std::string hash_text(const std::string& text) {
  git_oid oid;
  git::check(git_odb_hash(&oid, text.data(), text.size(), GIT_OBJECT_BLOB), "cannot hash");
  return git::to_hex(oid);
}

// The target's tree patches, in order, as one diff (each patches its own
// files; a diff per file is what libgit2 applies).
std::string tree_patch_text(const Target& target) {
  std::string text;
  for (const auto& patch : target.tree_patches) {
    text += read_file(patch);
    if (!text.empty() && text.back() != '\n') {
      text += '\n';
    }
  }
  return text;
}

std::string make_failure_text(const ProcessResult& result) { return "make " + result.describe(); }

}  // namespace

KernelBuilder::KernelBuilder(fs::path workdir_root, git::Store& store, ProcessRunner& runner,
                             std::size_t jobs)
    : m_root(std::move(workdir_root)), m_store(store), m_runner(runner), m_jobs(jobs) {}

fs::path KernelBuilder::target_dir(const Target& target) const {
  return m_root / "targets" / target.name;
}

std::vector<std::string> KernelBuilder::make_command(const Target& target,
                                                     const std::vector<std::string>& goals) const {
  const fs::path dir = target_dir(target);
  std::vector<std::string> argv = {"make",
                                   "-C",
                                   (dir / "src").string(),
                                   "O=" + (dir / "build").string(),
                                   "-j" + std::to_string(m_jobs),
                                   "CC=ccache " + target.compiler_program()};
  for (const auto& arg : target.compiler_make_args()) {
    argv.push_back(arg);
  }
  argv.insert(argv.end(), goals.begin(), goals.end());
  return argv;
}

ProcessSpec KernelBuilder::spec(std::vector<std::string> argv, const fs::path& log) const {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.log_file = log;
  spec.capture = false;
  spec.timeout = k_config_timeout;
  spec.kill_grace = k_make_grace;
  spec.env = build_env();
  return spec;
}

std::map<std::string, std::string> KernelBuilder::build_env() const {
  return {{"CCACHE_DIR", (m_root / "ccache").string()},
          {"CCACHE_MAXSIZE", "10G"},
          {"KBUILD_BUILD_TIMESTAMP", "Sat Jan  1 00:00:00 UTC 2000"},
          {"KBUILD_BUILD_USER", "kseries"},
          {"KBUILD_BUILD_HOST", "kseries"}};
}

std::string KernelBuilder::compiler_version(const Target& target) const {
  ProcessSpec version;
  version.argv = {target.compiler_program(), "--version"};
  version.timeout = std::chrono::seconds(30);
  const auto result = m_runner.run(version);
  const auto lines = split_lines(result.out);
  return lines.empty() ? target.compiler_program() : std::string(lines.front());
}

std::vector<std::string> KernelBuilder::update_warning_state(const Target& target,
                                                             const BuildLog& log) const {
  // Warnings come only from files make recompiled; the state keeps the last
  // warnings of every file so the full set is known after an incremental build.
  const fs::path state_file = target_dir(target) / "warnings.tsv";
  std::multimap<std::string, std::string> state;
  if (fs::exists(state_file)) {
    const std::string text = read_file(state_file);
    for (const auto line : split_lines(text)) {
      const auto tab = line.find('\t');
      if (tab != std::string_view::npos) {
        state.emplace(std::string(line.substr(0, tab)), std::string(line.substr(tab + 1)));
      }
    }
  }
  const std::set<std::string> recompiled(log.compiled.begin(), log.compiled.end());
  for (auto it = state.begin(); it != state.end();) {
    it = recompiled.count(it->first) ? state.erase(it) : std::next(it);
  }
  std::set<std::string> seen;
  for (const auto& warning : log.warnings) {
    if (seen.insert(warning.key()).second) {
      state.emplace(warning.file, warning.message);
    }
  }
  std::string text;
  std::vector<std::string> keys;
  for (const auto& [file, message] : state) {
    text += file + "\t" + message + "\n";
    keys.push_back(file + ": " + message);
  }
  write_file(state_file, text);
  return keys;
}

std::optional<KernelBuild> KernelBuilder::load(const std::string& key,
                                               const std::vector<fs::path>& modules) const {
  const fs::path dir = m_root / "kernels" / key;
  if (!fs::exists(dir / "build.json")) {
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(read_file(dir / "build.json"));
  KernelBuild kernel;
  kernel.key = key;
  kernel.dir = dir;
  kernel.image = dir / json.value("image", "bzImage");
  kernel.vmlinux = dir / "vmlinux";
  kernel.config = dir / "config";
  kernel.system_map = dir / "System.map";
  kernel.target = json.value("target", "");
  kernel.commit = json.value("commit", "");
  kernel.tree = json.value("tree", "");
  kernel.compiler = json.value("compiler", "");
  kernel.arch = json.value("arch", "x86_64");
  kernel.seconds = json.value("seconds", 0.0);
  kernel.warnings = json.value("warnings", std::vector<std::string>{});
  for (const auto& source : modules) {
    const fs::path out = module_dir(dir, source);
    const std::string name = source.filename().string();
    if (fs::exists(out.string() + ".error")) {
      kernel.module_errors[name] = read_file(out.string() + ".error");
    } else if (fs::is_directory(out)) {
      for (const auto& entry : fs::directory_iterator(out)) {
        // A test module's .ko, or a test payload's .tar (kernel/test_payload.h).
        if (entry.path().extension() == ".ko" || entry.path().extension() == ".tar") {
          kernel.modules[name] = entry.path();
        }
      }
    }
  }
  return kernel;
}

std::optional<KernelBuild> KernelBuilder::find(const Target& target, const git_oid& commit) const {
  const fs::path index = target_dir(target) / "kernels" / git::to_hex(commit);
  if (!fs::exists(index)) {
    return std::nullopt;
  }
  auto kernel = load(std::string(trim(read_file(index))), {});
  const std::string tree = git::to_hex(*git_tree_id(m_store.commit_tree(commit).get()));
  if (kernel && !record_problem(kernel->dir, tree).empty()) {
    return std::nullopt;  // not proven to be this commit's: never handed out
  }
  return kernel;
}

std::string check_struct_page(const Target& target, const KernelBuild& kernel) {
  if (target.struct_page == 0) {
    return "";
  }
  const std::string want = "target " + target.name + " requires sizeof(struct page) " +
                           std::to_string(target.struct_page) + " (struct-page: in " +
                           target.file.filename().string() + ")";
  const auto error = kernel.module_errors.find("memmap-dump");
  if (error != kernel.module_errors.end()) {
    return want + ", and the memmap dumper that reads it did not build: " + error->second;
  }
  const auto ko = kernel.modules.find("memmap-dump");
  if (ko == kernel.modules.end()) {
    return want +
           ", and there is no memmap dumper (testcases/memmap-dump) built against this "
           "kernel to read it from";
  }
  uint64_t have = 0;
  try {
    have = module_sizeof_page(ko->second);
  } catch (const Error& e) {
    return want + ": cannot read it: " + e.what();
  }
  if (have != target.struct_page) {
    return "sizeof(struct page) is " + std::to_string(have) + " bytes in this kernel (" +
           ko->second.filename().string() + "'s " + std::string(k_sizeof_page_section) +
           "): " + want;
  }
  return "";
}

// One request's facts, computed once: its target's directory, the tree,
// the toolchain, the request's cache index; the resolved .config and the
// kernel's key once configured.

namespace {

// One kseries at a time per target directory: the flock on DIR/lock, held
// until this goes out of scope.
class TargetLock {
 public:
  TargetLock(const fs::path& dir, const std::string& target, const Progress& progress)
      : m_fd(::open((dir / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (m_fd < 0) {
      throw infra_error("cannot open " + (dir / "lock").string());
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
      progress("waiting for another kseries that is building target " + target);
      ::flock(m_fd, LOCK_EX);
    }
  }
  TargetLock(const TargetLock&) = delete;
  TargetLock& operator=(const TargetLock&) = delete;
  ~TargetLock() { ::close(m_fd); }

 private:
  int m_fd;
};

constexpr int k_build_attempts = 3;

// The toolchain a target needs, before anything is written.
void check_toolchain(const Target& target) {
  if (!find_program(target.compiler_program())) {
    throw usage_error("target " + target.name + " needs " + target.compiler_program() +
                      ", which is not installed (ci/install-deps --kmsan installs clang-16, "
                      "lld-16 and llvm-16; ci/install-deps --arm64 the arm64 cross toolchain)");
  }
  if (!find_program("ccache")) {
    throw usage_error("ccache is not installed (ci/install-deps installs it)");
  }
}

// A target with `struct-page: N` fails the step (k_build_failed, a
// make_failures line, no kernel) unless the memmap dumper built against the
// kernel says sizeof(struct page) is N.
StepResult with_struct_page_checked(const Target& target, StepResult result,
                                    const Progress& progress) {
  if (target.struct_page == 0 || !result.kernel ||
      (result.status != StepStatus::k_built && result.status != StepStatus::k_cached)) {
    return result;
  }
  const std::string failure = check_struct_page(target, *result.kernel);
  if (failure.empty()) {
    progress("sizeof(struct page) = " + std::to_string(target.struct_page) + " bytes, as target " +
             target.name + " requires");
    return result;
  }
  // Not a kernel of this target: no caller may boot it (it stays in the
  // kernel cache, and is checked again when asked for again).
  result.status = StepStatus::k_build_failed;
  result.make_failures.push_back(failure);
  result.kernel.reset();
  return result;
}

}  // namespace

StepResult KernelBuilder::build(const BuildRequest& request) {
  const auto started = Clock::now();
  StepResult result = run_stages(request);
  result.log = request.log;
  result.seconds = seconds_since(started);
  return with_struct_page_checked(*request.target, std::move(result), request.progress);
}

StepResult KernelBuilder::run_stages(const BuildRequest& request) {
  check_toolchain(*request.target);
  Job job = plan(request);
  // Same tree, same fragments, same toolchain: the kernel built before, at
  // once, without even a checkout.
  if (auto cached = cached_by_request(job)) {
    return *cached;
  }
  // A cached kernel, above, needs no lock: its directory appears by an
  // atomic rename. From the checkout to the store, one critical section:
  // checkout, configuration, make, test modules and the record.
  const TargetLock lock(job.dir, job.target().name, request.progress);
  for (int attempt = 1;; ++attempt) {
    try {
      return build_locked(job);
    } catch (const SourcesChanged& changed) {
      if (attempt == k_build_attempts) {
        throw infra_error("target " + job.target().name + ": " + changed.what + ", in " +
                          std::to_string(attempt) +
                          " builds in a row: is another program "
                          "writing to " +
                          (job.dir / "src").string() + "? Nothing was stored");
      }
      request.progress(changed.what + ": not stored; the files are restored from commit " +
                       git::to_hex(request.commit).substr(0, 12) + " and the kernel built again");
      restore_sources(job, changed.paths);
    }
  }
}

StepResult KernelBuilder::build_locked(Job& job) {
  const BuildRequest& request = job.request;
  check_out(job);
  if (auto stop = configure(job)) {
    return *stop;  // not constructible, or configure-only
  }
  if (auto cached = cached_by_config(job)) {
    return *cached;
  }
  job.before = snapshot_tree(job.dir / "src");
  const auto stored = load(job.key, request.test_modules);
  const bool known = stored && trusted(job, *stored);
  // A cached kernel that lacks a test module (new, or its source changed):
  // the module needs this kernel's headers, generated headers and .config,
  // not its objects. With the checkout and .config in place, `make
  // modules_prepare` regenerates exactly that (seconds); a full make would
  // recompile everything the previous kernel of this directory changed.
  // Module.symvers comes from the directory's last full build (same target),
  // which is all modpost needs for the symbols a test module uses.
  // A test payload takes in-tree modules from the build directory, which
  // must then hold this very kernel: a full (incremental) make, below.
  const bool payload = std::any_of(request.test_modules.begin(), request.test_modules.end(),
                                   [](const fs::path& dir) { return is_test_payload(dir); });
  if (known && !payload && fs::exists(job.dir / "build" / "vmlinux") &&
      fs::exists(job.dir / "build" / "Module.symvers")) {
    auto prepare = spec(make_command(job.target(), {"modules_prepare"}), request.log);
    prepare.timeout = k_make_timeout;
    request.progress("the kernel is cached, its test modules are not: " +
                     format_command(prepare.argv));
    const auto prepared = m_runner.run(prepare);
    if (!prepared.ok()) {
      throw infra_error("target " + job.target().name + ": make modules_prepare failed (" +
                        prepared.describe() + "); see " + request.log.string());
    }
    build_modules(request, m_root / "kernels" / job.key);
    check_unchanged(job, "while the test modules were built");
    return record_cached(job);
  }
  return make(job, known);
}

KernelBuilder::Job KernelBuilder::plan(const BuildRequest& request) const {
  const Target& target = *request.target;
  Job job{request, target_dir(target), "", "", "", ""};
  fs::create_directories(job.dir / "build");
  fs::create_directories(job.dir / "kernels");
  fs::create_directories(job.dir / "configs");
  git::TreePtr tree = m_store.commit_tree(request.commit);
  job.tree_id = git::to_hex(*git_tree_id(tree.get()));
  job.compiler = compiler_version(target);
  const auto make_args = make_command(target, {});
  for (size_t i = 5; i < make_args.size(); ++i) {  // not make, -C, O=, -j
    job.flags += make_args[i] + "\n";
  }
  if (!target.tree_patches.empty()) {
    job.tree_patch = "tree-patch " + hash_text(tree_patch_text(target)) + "\n";
  }
  std::string text =
      job.tree_id + "\n" + job.tree_patch + target.base + "\n" + job.compiler + "\n" + job.flags;
  for (const auto& fragment : target.fragments) {
    text += read_file(fragment) + "\n";
  }
  job.request_index = job.dir / "configs" / hash_text(text);
  return job;
}

// A stored kernel is reused only when its record proves it was built from
// this job's tree (kernel_verify.h); else it is built again, and said so.
bool KernelBuilder::trusted(const Job& job, const KernelBuild& kernel) const {
  const std::string problem = record_problem(kernel.dir, job.tree_id);
  if (!problem.empty()) {
    job.request.progress("kernel " + kernel.key.substr(0, 12) +
                         " in the cache is not reused: " + problem);
  }
  return problem.empty();
}

std::optional<StepResult> KernelBuilder::cached_by_request(const Job& job) const {
  if (!fs::exists(job.request_index)) {
    return std::nullopt;
  }
  auto cached = load(std::string(trim(read_file(job.request_index))), job.request.test_modules);
  if (!cached || !has_modules(*cached, job.request.test_modules) || !trusted(job, *cached)) {
    return std::nullopt;
  }
  cached->cached = true;
  write_file(job.commit_index(), cached->key + "\n");
  StepResult result;
  result.status = StepStatus::k_cached;
  result.kernel = cached;
  return result;
}

// Checkout: only files that differ from the last build of this target change.
void KernelBuilder::check_out(Job& job) {
  git::SourceTree source(job.dir / "src", job.dir / "src.commit");
  const auto started = Clock::now();
  const std::size_t changed = source.move_to(m_store, job.request.commit);
  job.request.progress("checkout " + git::to_hex(job.request.commit).substr(0, 12) + ": " +
                       std::to_string(changed) + " files written in " +
                       std::to_string(static_cast<int>(seconds_since(started))) + " s");
  apply_tree_patch(job);
}

// The target's tree-patch over the checkout: each file it makes written,
// and the files an earlier build's patch made but this one does not put
// back to the commit's; a file that already holds its content is not
// touched (make's timestamps stay). DIR/src.tree-patch lists what is patched.
void KernelBuilder::apply_tree_patch(Job& job) {
  const fs::path src = job.dir / "src";
  const fs::path record = job.dir / "src.tree-patch";
  std::vector<git::PatchedFile> files;
  if (!job.target().tree_patches.empty()) {
    files = git::patch_tree(
        m_store, job.request.commit, tree_patch_text(job.target()),
        "target " + job.target().name + ": tree patches (" + job.target().file.string() + ")");
  }
  std::set<std::string> patched;
  job.patched.clear();
  for (const auto& file : files) {
    patched.insert(file.path);
    git_oid blob{};
    if (file.content) {
      git::check(git_odb_hash(&blob, file.content->data(), file.content->size(), GIT_OBJECT_BLOB),
                 "cannot hash " + file.path);
    }
    job.patched[file.path] = file.content ? git::to_hex(blob) : "";
  }
  if (fs::exists(record)) {
    const std::string listed_before = read_file(record);  // split_lines' views point here
    for (const auto line : split_lines(listed_before)) {
      const std::string path(line);
      if (!path.empty() && !patched.count(path)) {
        files.push_back({path, git::file_at(m_store, job.request.commit, path)});
      }
    }
  }
  std::string listed;
  for (const auto& file : files) {
    const fs::path target = src / file.path;
    if (file.path.empty() || file.path.front() == '/' ||
        file.path.find("..") != std::string::npos) {
      throw usage_error("target " + job.target().name + ": tree patch path '" + file.path +
                        "' is outside the tree");
    }
    if (!file.content) {
      fs::remove(target);
    } else if (!fs::exists(target) || read_file(target) != *file.content) {
      fs::create_directories(target.parent_path());
      write_file(target, *file.content);
    }
    listed += patched.count(file.path) ? file.path + "\n" : "";
  }
  if (listed.empty()) {
    fs::remove(record);
  } else {
    write_file(record, listed);
  }
}

// Configure the kernel's way (base config, merge_config.sh, olddefconfig),
// then verify: every requested symbol must keep its value. A finished
// result when the build stops here.
std::optional<StepResult> KernelBuilder::configure(Job& job) {
  const Target& target = job.target();
  const fs::path& log = job.request.log;
  auto run_config_step = [&](std::vector<std::string> argv, const std::string& what) {
    auto step = spec(std::move(argv), log);
    step.cwd = job.dir / "src";
    const auto outcome = m_runner.run(step);
    if (!outcome.ok()) {
      throw infra_error("target " + target.name + ": " + what + " failed (" + outcome.describe() +
                        "); see " + log.string());
    }
  };
  run_config_step(make_command(target, {target.base}), "make " + target.base);
  std::vector<std::string> merge = {"scripts/kconfig/merge_config.sh", "-m", "-O",
                                    (job.dir / "build").string(),
                                    (job.dir / "build" / ".config").string()};
  for (const auto& fragment : target.fragments) {
    merge.push_back(fs::absolute(fragment).string());
  }
  run_config_step(merge, "merge_config.sh");
  run_config_step(make_command(target, {"olddefconfig"}), "make olddefconfig");

  job.config_text = read_file(job.dir / "build" / ".config");
  const DotConfig config = parse_dot_config(job.config_text);
  const auto requests = target_requests(target);
  const auto index = KconfigIndex::scan(job.dir / "src");
  for (const auto& request : requests) {
    if (!index.knows(request.symbol)) {
      throw usage_error(request.where() + ": unknown Kconfig symbol CONFIG_" + request.symbol +
                        " (no Kconfig file in the tree defines it)");
    }
  }
  StepResult result;
  for (const auto& dropped : find_dropped(requests, config)) {
    result.dropped.push_back(explain_dropped(dropped, index, config));
  }
  if (!result.dropped.empty()) {
    result.status = StepStatus::k_not_constructible;
    return result;
  }
  if (job.request.configure_only) {
    result.status = StepStatus::k_configured;
    result.config = job.dir / "build" / ".config";
    return result;
  }
  // The cache key of a finished kernel: tree + resolved .config + toolchain.
  job.key = hash_text(job.tree_id + "\n" + job.tree_patch + job.config_text + "\n" + job.compiler +
                      "\n" + job.flags);
  return std::nullopt;
}

std::optional<StepResult> KernelBuilder::cached_by_config(const Job& job) const {
  auto known = load(job.key, job.request.test_modules);
  if (!known || !has_modules(*known, job.request.test_modules) || !trusted(job, *known)) {
    return std::nullopt;
  }
  known->cached = true;
  write_file(job.commit_index(), job.key + "\n");
  write_file(job.request_index, job.key + "\n");
  StepResult result;
  result.status = StepStatus::k_cached;
  result.kernel = known;
  return result;
}

// The cached kernel, now with its test modules: recorded for this request.
StepResult KernelBuilder::record_cached(const Job& job) const {
  write_file(job.commit_index(), job.key + "\n");
  write_file(job.request_index, job.key + "\n");
  StepResult result;
  result.kernel = load(job.key, job.request.test_modules);
  result.kernel->cached = true;
  result.status = StepStatus::k_cached;
  return result;
}

// DIR/make.running is there while a make runs in DIR/build and gone once it
// has exited, however it ended (an interrupted make is sent SIGTERM and
// waited for: make deletes the target it was writing). Found at the start
// of a build, the kseries before died with its make (SIGKILL, OOM, power)
// and may have left an object half-written under a fresh timestamp, which
// an incremental make takes as built. Seen: a kasan build SIGKILLed in
// `make` at a session's end; the next revision's incremental build failed
// in modpost ("thermal_zone_device_priv" [x86_pkg_temp_thermal.ko]
// undefined), and the gate failed a known-good revision for it. So the
// build directory is cleaned first (`make clean` keeps .config; ccache
// makes the rebuild cheap).
void KernelBuilder::clean_after_killed_make(const Job& job) {
  if (!fs::exists(job.dir / "make.running")) {
    return;
  }
  auto command = spec(make_command(job.target(), {"clean"}), job.request.log);
  command.timeout = k_make_timeout;
  job.request.progress("the last make in " + (job.dir / "build").string() +
                       " never finished (its kseries was killed): " + format_command(command.argv) +
                       " first, so that no half-written object passes for built");
  const auto cleaned = m_runner.run(command);
  if (!cleaned.ok()) {
    throw infra_error("target " + job.target().name + ": make clean failed (" + cleaned.describe() +
                      "); see " + job.request.log.string());
  }
  fs::remove(job.dir / "make.running");
}

// One kernel make at a time in a work directory: each is `make -jN` over
// every core, so a second kseries (a watch beside a gate, the shards of one
// gate on one machine) waits for the slot rather than halving both builds
// and running past their time limits. Held from the kernel make until
// make() returns: the check of the sources it read, the test modules' make
// and the store of the kernel; the checkout, the configuration and the
// boots go on beside another's make.
FileLock KernelBuilder::take_build_slot(const Job& job) const {
  const fs::path path = m_root / "build.slot";
  const std::string what = "make for target " + job.target().name + " in " + job.dir.string();
  std::string holder;
  if (auto slot = FileLock::try_acquire(path, what, holder)) {
    return std::move(*slot);
  }
  job.request.progress("waiting for the build slot (" + path.string() + "), held by " + holder);
  const auto waited = Clock::now();
  FileLock slot = FileLock::acquire(path, what);
  job.request.progress("build slot taken after " +
                       std::to_string(static_cast<int>(seconds_since(waited))) + " s");
  return slot;
}

ProcessResult KernelBuilder::run_make(const Job& job, const ProcessSpec& command) {
  const fs::path running = job.dir / "make.running";
  write_file(running, format_command(command.argv) + "\n");
  try {
    auto outcome = m_runner.run(command);
    fs::remove(running);
    return outcome;
  } catch (const Error& error) {
    if (error.kind() == ErrorKind::k_interrupted) {
      fs::remove(running);  // make was signalled and waited for
    }
    throw;
  }
}

// Build. Progress: objects compiled, against the last clean build's count.
// KNOWN: the kernel is cached and this make only serves its test modules.
StepResult KernelBuilder::make(const Job& job, bool known) {
  const fs::path& dir = job.dir;
  const fs::path& log = job.request.log;
  clean_after_killed_make(job);
  const bool clean = !fs::exists(dir / "build" / "vmlinux");
  std::size_t expected = 0;
  if (clean && fs::exists(dir / "objects.total")) {
    expected = std::stoul(read_file(dir / "objects.total"));
  }
  auto command = spec(make_command(job.target(), {}), log);
  command.timeout = k_make_timeout;
  std::size_t compiled = 0;
  auto last_report = Clock::now();
  const auto make_started = Clock::now();
  command.on_line = [&](std::string_view line) {
    if (!compiled_source(line).empty()) {
      ++compiled;
    }
    if (Clock::now() - last_report >= k_progress_every) {
      last_report = Clock::now();
      std::string text = std::to_string(compiled) + " objects compiled";
      if (expected > 0) {
        const double share = std::min(1.0, static_cast<double>(compiled) / expected);
        const double elapsed = seconds_since(make_started);
        text += " of ~" + std::to_string(expected) + " (" +
                std::to_string(static_cast<int>(share * 100)) + "%, ~" +
                std::to_string(share > 0.02 ? static_cast<int>(elapsed / share - elapsed) : 0) +
                " s left)";
      }
      job.request.progress(text);
    }
  };
  const FileLock slot = take_build_slot(job);
  job.request.progress(std::string(clean ? "clean" : "incremental") + " build" +
                       (known ? " (the kernel is cached; its test modules are not)" : "") + ": " +
                       format_command(command.argv));
  const auto outcome = run_make(job, command);
  // The compiler quotes source lines (any byte a patch put there): valid
  // UTF-8 from here on, so warnings reach build.json and the reports intact.
  const std::string log_text = fs::exists(log) ? printable_text(read_file(log)) : "";
  const auto parsed = parse_build_log(
      log_text, {(dir / "src").string() + "/", "../src/", "../" + (dir / "src").string() + "/"});
  const auto warnings = update_warning_state(job.target(), parsed);
  if (parsed.disk_full) {
    throw infra_error("disk full while building target " + job.target().name + " (" +
                      (dir / "build").string() + "); free space and rerun: the build resumes");
  }
  if (!outcome.ok()) {
    StepResult result;
    result.compiled = compiled;
    result.status = StepStatus::k_build_failed;
    result.errors = parsed.errors;
    result.make_failures = parsed.make_failures;
    if (result.errors.empty() && result.make_failures.empty()) {
      result.make_failures.push_back(make_failure_text(outcome));
    }
    return result;
  }
  if (clean) {
    write_file(dir / "objects.total", std::to_string(compiled) + "\n");
  }
  check_unchanged(job, "while make ran");
  if (known) {
    // The artifacts are kept; this make only served the modules.
    build_modules(job.request, m_root / "kernels" / job.key);
    StepResult result = record_cached(job);
    result.compiled = compiled;
    return result;
  }
  const SourceCheck sources = check_sources_read(job);
  return record(job, sources, compiled, seconds_since(make_started), warnings);
}

// Artifacts for later stages: the image, vmlinux, System.map, .config and
// build.json under the kernel's key, then its test modules and the indexes.
StepResult KernelBuilder::record(const Job& job, const SourceCheck& sources, std::size_t compiled,
                                 double make_seconds,
                                 const std::vector<std::string>& warnings) const {
  const Target& target = job.target();
  const fs::path out = m_root / "kernels" / job.key;
  // Beside its final place under a name of this process's own: another
  // target of the same key (the same .config) may be storing it too.
  const fs::path partial =
      m_root / "kernels" / (job.key + ".partial." + std::to_string(::getpid()));
  fs::remove_all(partial);
  fs::create_directories(partial);
  const fs::path build_dir = job.dir / "build";
  const fs::path image = target.image_path();
  fs::copy_file(build_dir / image, partial / image.filename());
  fs::copy_file(build_dir / "vmlinux", partial / "vmlinux");
  fs::copy_file(build_dir / "System.map", partial / "System.map");
  write_file(partial / "config", job.config_text);
  write_file(partial / k_sources_file, manifest_text(sources));
  nlohmann::json json = {{"target", target.name},   {"commit", git::to_hex(job.request.commit)},
                         {"tree", job.tree_id},     {"compiler", job.compiler},
                         {"arch", target.arch},     {"image", image.filename().string()},
                         {"seconds", make_seconds}, {"objects_compiled", compiled},
                         {"warnings", warnings}};
  json["key_inputs"] = {{"tree_patch", job.tree_patch}, {"flags", job.flags}};
  json["source_check"] = source_record(sources, job.patched, job.before.size());
  json["artifacts"] = artifact_digests(partial, image.filename().string());
  write_file(partial / "build.json", json_text(json));
  // The test modules are built and the checkout checked once more before
  // the kernel appears under its key: nothing half-proven is ever stored.
  try {
    build_modules(job.request, partial);
    check_unchanged(job, "while the test modules were built");
  } catch (...) {
    std::error_code ec;
    fs::remove_all(partial, ec);
    throw;
  }
  fs::remove_all(out);
  fs::rename(partial, out);
  write_file(job.commit_index(), job.key + "\n");
  write_file(job.request_index, job.key + "\n");
  StepResult result;
  result.kernel = load(job.key, job.request.test_modules);
  result.status = StepStatus::k_built;
  result.compiled = compiled;
  return result;
}

}  // namespace kseries::kernel
