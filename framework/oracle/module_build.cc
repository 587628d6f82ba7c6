#include "oracle/module_build.h"

#include <system_error>

#include "core/error.h"

namespace kseries::oracle {

namespace fs = std::filesystem;

namespace {

std::string tail_lines(const std::string& text, size_t lines) {
  size_t pos = text.size();
  while (lines > 0 && pos > 0) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) {
      return text;
    }
    --lines;
  }
  return text.substr(pos + 1);
}

}  // namespace

fs::path build_module(const fs::path& kernel_build_dir, const fs::path& module_source_dir,
                      const fs::path& out_dir, ProcessRunner& runner) {
  if (!fs::exists(kernel_build_dir / ".config") ||
      !fs::exists(kernel_build_dir / "Module.symvers")) {
    throw usage_error("build_module: " + kernel_build_dir.string() +
                      " is not a built kernel with modules (no .config or Module.symvers)");
  }
  if (!fs::exists(module_source_dir / "Kbuild")) {
    throw usage_error("build_module: no Kbuild in " + module_source_dir.string());
  }
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    throw infra_error("build_module: creating " + out_dir.string() + ": " + ec.message());
  }
  // Only the sources: a stale .ko or .o from another kernel must not survive.
  for (const auto& entry : fs::directory_iterator(out_dir)) {
    fs::remove_all(entry.path(), ec);
  }
  for (const auto& entry : fs::directory_iterator(module_source_dir)) {
    const std::string ext = entry.path().extension().string();
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() &&
        (ext == ".c" || ext == ".h" || name == "Kbuild" || name == "Makefile")) {
      fs::copy_file(entry.path(), out_dir / name, fs::copy_options::overwrite_existing, ec);
      if (ec) {
        throw infra_error("build_module: copying " + entry.path().string() + ": " + ec.message());
      }
    }
  }
  ProcessSpec spec;
  spec.argv = {"make", "-C", fs::absolute(kernel_build_dir).string(),
               "M=" + fs::absolute(out_dir).string(), "modules"};
  spec.timeout = std::chrono::minutes(5);
  spec.log_file = out_dir / "build.log";
  const ProcessResult result = runner.run(spec);
  const fs::path ko = out_dir / "memmap_dump.ko";
  if (!result.ok() || !fs::exists(ko)) {
    throw infra_error("build_module: " + format_command(spec.argv) + ": " + result.describe() +
                      (result.ok() ? " but no " + ko.string() : "") + "\n" +
                      tail_lines(result.out + result.err, 15));
  }
  return ko;
}

}  // namespace kseries::oracle
