#include "kernel/module_build.h"

#include <algorithm>
#include <system_error>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

namespace {

bool is_module_source(const fs::directory_entry& entry) {
  const std::string ext = entry.path().extension().string();
  const std::string name = entry.path().filename().string();
  return entry.is_regular_file() &&
         (ext == ".c" || ext == ".h" || name == "Kbuild" || name == "Makefile");
}

std::vector<fs::path> module_sources(const fs::path& source_dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(source_dir)) {
    if (is_module_source(entry)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::string module_source_hash(const fs::path& source_dir) {
  std::string all;
  for (const auto& file : module_sources(source_dir)) {
    const std::string text = read_file(file);
    all += file.filename().string() + "\n" + std::to_string(text.size()) + "\n" + text;
  }
  git_oid oid;
  git::check(git_odb_hash(&oid, all.data(), all.size(), GIT_OBJECT_BLOB), "cannot hash");
  return git::to_hex(oid);
}

std::vector<fs::path> build_module(const ModuleBuildSpec& spec, ProcessRunner& runner) {
  if (!fs::exists(spec.kernel_build_dir / ".config") ||
      !fs::exists(spec.kernel_build_dir / "Module.symvers")) {
    throw usage_error("building the module in " + spec.source_dir.string() + ": " +
                      spec.kernel_build_dir.string() +
                      " is not a built kernel with modules (no .config or Module.symvers; "
                      "the target needs CONFIG_MODULES=y)");
  }
  if (!fs::exists(spec.source_dir / "Kbuild")) {
    throw usage_error("no Kbuild in " + spec.source_dir.string());
  }
  std::error_code ec;
  fs::create_directories(spec.out_dir, ec);
  if (ec) {
    throw infra_error("creating " + spec.out_dir.string() + ": " + ec.message());
  }
  // Only the sources: a stale .ko or .o from another kernel must not survive.
  for (const auto& entry : fs::directory_iterator(spec.out_dir)) {
    fs::remove_all(entry.path(), ec);
  }
  for (const auto& file : module_sources(spec.source_dir)) {
    fs::copy_file(file, spec.out_dir / file.filename(), fs::copy_options::overwrite_existing, ec);
    if (ec) {
      throw infra_error("copying " + file.string() + ": " + ec.message());
    }
  }
  ProcessSpec make;
  make.argv = {"make", "-C", fs::absolute(spec.kernel_build_dir).string(),
               "M=" + fs::absolute(spec.out_dir).string()};
  make.argv.insert(make.argv.end(), spec.make_args.begin(), spec.make_args.end());
  make.argv.push_back("modules");
  make.env = spec.env;
  make.timeout = std::chrono::minutes(5);
  make.log_file = spec.out_dir / "build.log";
  const ProcessResult result = runner.run(make);
  std::vector<fs::path> modules;
  for (const auto& entry : fs::directory_iterator(spec.out_dir)) {
    if (entry.path().extension() == ".ko") {
      modules.push_back(entry.path());
    }
  }
  std::sort(modules.begin(), modules.end());
  if (!result.ok() || modules.empty()) {
    throw infra_error("building the module in " + spec.source_dir.string() + ": " +
                      format_command(make.argv) + ": " + result.describe() +
                      (result.ok() ? " but no .ko" : "") + "\n" +
                      last_lines(result.out + result.err, 15));
  }
  return modules;
}

}  // namespace kseries::kernel
