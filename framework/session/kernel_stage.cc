#include "session/kernel_stage.h"

#include <algorithm>

#include "core/error.h"
#include "git/apply.h"
#include "guest/initramfs.h"

namespace kseries::session {

namespace fs = std::filesystem;

std::vector<fs::path> kernel_module_dirs(const cases::CaseDef& test_case,
                                         const kernel::Target& target, const fs::path& testcases) {
  std::vector<fs::path> dirs;
  for (const auto& module : test_case.modules) {
    dirs.push_back(testcases / module);
  }
  const fs::path dumper = testcases / "memmap-dump";
  if (target.struct_page != 0 && fs::is_directory(dumper) &&
      std::find(dirs.begin(), dirs.end(), dumper) == dirs.end()) {
    dirs.push_back(dumper);
  }
  return dirs;
}

std::optional<std::string> build_kernels(std::vector<KernelUnderTest>& kernels,
                                         const kernel::Target& target,
                                         const std::vector<fs::path>& test_modules,
                                         kernel::KernelBuilds& builder, const fs::path& run_dir,
                                         Status& status) {
  for (auto& k : kernels) {
    status.progress("kernel " + k.name + " for " + target.name + " (" +
                    git::to_hex(k.commit).substr(0, 12) + ")");
    std::string log_name = k.name;
    for (char& c : log_name) {
      c = (c == '/' || c == ' ') ? '-' : c;
    }
    const auto built = builder.build(
        {.target = &target,
         .commit = k.commit,
         .log = run_dir / ("build-" + log_name + ".log"),
         .test_modules = test_modules,
         .progress = [&](const std::string& text) { status.progress(k.name + ": " + text); }});
    if (!built.kernel) {
      std::string why = built.status == kernel::StepStatus::k_not_constructible
                            ? "target " + target.name + " is not constructible"
                            : "does not build";
      for (const auto& error : built.errors) {
        why += "\n  " + error.file + ":" + std::to_string(error.line) + ": " + error.message;
      }
      for (const auto& line : built.dropped) {
        why += "\n  dropped: " + line;
      }
      for (const auto& line : built.make_failures) {
        why += "\n  " + line;
      }
      return "kernel " + k.name + " for " + target.name + " " + why + " (log " +
             built.log.string() + ")";
    }
    k.build = *built.kernel;
  }
  return std::nullopt;
}

void build_initramfs_for(std::vector<KernelUnderTest>& kernels, const kernel::Target& target,
                         const cases::CaseDef& test_case, const fs::path& testcases,
                         const fs::path& cache_dir, ProcessRunner& runner) {
  for (auto& k : kernels) {
    guest::InitramfsSources sources{testcases, target.busybox, {}, target.helper_compiler()};
    for (const auto& module : test_case.modules) {
      const auto ko = k.build.modules.find(module);
      if (ko == k.build.modules.end()) {
        const auto why = k.build.module_errors.find(module);
        throw infra_error("case " + test_case.name + " needs the test module " + module +
                          " built for kernel " + k.name + " (" + k.build.key.substr(0, 12) + "): " +
                          (why != k.build.module_errors.end()
                               ? why->second
                               : std::string("the target has no CONFIG_MODULES=y")));
      }
      sources.extra_files.emplace_back("testcases/" + module + "/" + ko->second.filename().string(),
                                       ko->second);
    }
    k.initramfs = guest::build_initramfs(sources, cache_dir, runner);
  }
}

}  // namespace kseries::session
