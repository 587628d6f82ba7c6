#include "guest/initramfs.h"

#include <git2.h>

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "git/libgit2.h"
#include "guest/cpio.h"
#include "sys/files.h"

namespace kseries::guest {

namespace fs = std::filesystem;

namespace {

std::string content_hash(const std::string& data) {
  git_oid oid;
  git::check(git_odb_hash(&oid, data.data(), data.size(), GIT_OBJECT_BLOB), "cannot hash");
  return git::to_hex(oid);
}

// Compiles testcases/helpers/NAME.c statically with `cc`, cached by source
// hash and compiler.
fs::path static_helper(const fs::path& source, const std::string& cc, const fs::path& cache_dir,
                       ProcessRunner& runner) {
  const std::string code = read_file(source);
  const fs::path binary =
      cache_dir / (source.stem().string() + "-" + content_hash(cc + "\n" + code).substr(0, 16));
  if (fs::exists(binary)) {
    return binary;
  }
  ProcessSpec gcc;
  if (!find_program(cc)) {
    throw usage_error("cannot build the guest helper " + source.string() + ": " + cc +
                      " is not installed (ci/install-deps; --arm64 for the cross compiler)");
  }
  gcc.argv = {cc, "-static", "-O2", "-o", binary.string() + ".tmp", source.string()};
  gcc.timeout = std::chrono::minutes(2);
  const auto result = runner.run(gcc);
  if (!result.ok()) {
    throw infra_error("cannot build the guest helper " + source.string() + " (" +
                      result.describe() + "): " + result.err.substr(0, 400));
  }
  fs::rename(binary.string() + ".tmp", binary);
  return binary;
}

}  // namespace

fs::path build_initramfs(const InitramfsSources& sources, const fs::path& cache_dir,
                         ProcessRunner& runner) {
  fs::create_directories(cache_dir);
  if (!fs::is_regular_file(sources.busybox)) {
    throw usage_error("busybox not found at " + sources.busybox.string() +
                      " (apt-get install busybox-static, or run ci/install-deps; for arm64 guests "
                      "ci/install-deps --arm64)");
  }
  if (!fs::is_regular_file(sources.testcases / "lib" / "init")) {
    throw usage_error("no guest init at " + (sources.testcases / "lib" / "init").string());
  }
  CpioWriter cpio;
  for (const char* dir :
       {"bin", "dev", "proc", "sys", "tmp", "mnt", "testcases", "testcases/bin"}) {
    cpio.add_directory(dir);
  }
  cpio.add_char_device("dev/console", 5, 1);
  cpio.add_file("init", read_file(sources.testcases / "lib" / "init"), 0755);
  cpio.add_file("bin/busybox", read_file(sources.busybox), 0755);

  // Every case directory, in a stable order, modes kept.
  std::vector<fs::path> entries;
  for (auto it = fs::recursive_directory_iterator(sources.testcases);
       it != fs::recursive_directory_iterator(); ++it) {
    entries.push_back(it->path());
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& path : entries) {
    const std::string inside = "testcases/" + fs::relative(path, sources.testcases).string();
    if (fs::is_directory(path)) {
      cpio.add_directory(inside);
    } else if (fs::is_regular_file(path)) {
      const auto perms = fs::status(path).permissions();
      const bool exec = (perms & fs::perms::owner_exec) != fs::perms::none;
      cpio.add_file(inside, read_file(path), exec ? 0755 : 0644);
    }
  }
  const fs::path helpers = sources.testcases / "helpers";
  if (fs::is_directory(helpers)) {
    std::vector<fs::path> sources_c;
    for (const auto& entry : fs::directory_iterator(helpers)) {
      if (entry.path().extension() == ".c") {
        sources_c.push_back(entry.path());
      }
    }
    std::sort(sources_c.begin(), sources_c.end());
    for (const auto& source : sources_c) {
      cpio.add_file("testcases/bin/" + source.stem().string(),
                    read_file(static_helper(source, sources.cc, cache_dir, runner)), 0755);
    }
  }
  for (const auto& [inside, host] : sources.extra_files) {
    if (!fs::is_regular_file(host)) {
      throw infra_error("initramfs: " + host.string() + " (for /" + inside + ") does not exist");
    }
    cpio.add_file(inside, read_file(host), 0644);
  }
  const std::string archive = cpio.finish();
  const fs::path out = cache_dir / ("initramfs-" + content_hash(archive).substr(0, 16) + ".cpio");
  if (!fs::exists(out)) {
    write_file(out.string() + ".tmp", archive);
    fs::rename(out.string() + ".tmp", out);
  }
  return out;
}

}  // namespace kseries::guest
