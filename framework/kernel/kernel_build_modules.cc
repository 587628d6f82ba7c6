// The kernel builder's test modules and payloads, built against a stored
// kernel (kernel_build.h).
#include <string>
#include <vector>

#include "core/error.h"
#include "kernel/kernel_build.h"
#include "kernel/module_build.h"
#include "kernel/test_payload.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

fs::path KernelBuilder::module_dir(const fs::path& kernel_dir, const fs::path& source) const {
  return kernel_dir / "modules" /
         (source.filename().string() + "-" + module_source_hash(source).substr(0, 16));
}

bool KernelBuilder::has_modules(const KernelBuild& kernel,
                                const std::vector<fs::path>& modules) const {
  if (!fs::exists(kernel.config) ||
      read_file(kernel.config).find("\nCONFIG_MODULES=y\n") == std::string::npos) {
    return true;  // nothing can be built for it
  }
  for (const auto& source : modules) {
    const std::string name = source.filename().string();
    if (!kernel.modules.count(name) && !kernel.module_errors.count(name)) {
      return false;
    }
  }
  return true;
}

void KernelBuilder::build_modules(const BuildRequest& request, const fs::path& kernel_dir) const {
  const Target& target = *request.target;
  const Progress& progress = request.progress;
  const fs::path build_dir = target_dir(target) / "build";
  if (read_file(build_dir / ".config").find("\nCONFIG_MODULES=y\n") == std::string::npos) {
    return;
  }
  const auto make = make_command(target, {});
  const auto env = build_env();
  for (const auto& source : request.test_modules) {
    const fs::path out = module_dir(kernel_dir, source);
    if (fs::exists(out) || fs::exists(out.string() + ".error")) {
      continue;
    }
    const fs::path partial = out.string() + ".partial";
    fs::remove_all(partial);
    try {
      if (is_test_payload(source)) {
        const PayloadBuildSpec payload{target_dir(target) / "src", build_dir, source, partial,
                                       make[5].substr(3),          m_jobs,    env};
        const auto tar = build_payload(payload, m_store, request.commit, m_runner);
        fs::rename(partial, out);
        progress("test payload " + source.filename().string() + ": " + tar.filename().string());
        continue;
      }
      ModuleBuildSpec module{build_dir, source, partial, {make.begin() + 5, make.end()}, env};
      const auto kos = build_module(module, m_runner);
      fs::rename(partial, out);
      progress("test module " + source.filename().string() + ": " +
               kos.front().filename().string());
    } catch (const Error& e) {
      // The kernel is fine; the case that needs the module reports this.
      write_file(out.string() + ".error", e.what());
      progress("test module " + source.filename().string() + " does not build: " + e.what());
    }
  }
}

}  // namespace kseries::kernel
