#include "kernel/test_payload.h"

#include <algorithm>
#include <system_error>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_export_key = "KSERIES_EXPORT";
// The selftests compile in minutes; a payload that hangs must not hold the
// target's lock for the make's four hours.
constexpr auto k_payload_timeout = std::chrono::minutes(45);

// The commit's files under PATHS written to DEST (libgit2's checkout of a
// tree into another directory, limited by a pathspec: a directory name
// takes everything below it).
void export_paths(git::Store& store, const git_oid& commit, const std::vector<std::string>& paths,
                  const fs::path& dest) {
  git::TreePtr tree = store.commit_tree(commit);
  std::vector<char*> specs;
  std::vector<std::string> copies = paths;
  for (auto& path : copies) {
    specs.push_back(path.data());
  }
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  const std::string target = dest.string();
  options.target_directory = target.c_str();
  options.paths = {specs.data(), specs.size()};
  fs::create_directories(dest);
  git::check(
      git_checkout_tree(store.repo(), reinterpret_cast<const git_object*>(tree.get()), &options),
      "cannot export the test payload's sources of " + git::to_hex(commit) + " into " + target);
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::exists(dest / path, ec)) {
      throw usage_error("the test payload exports '" + path + "', which commit " +
                        git::to_hex(commit).substr(0, 12) + " does not have");
    }
  }
}

fs::path the_tar(const fs::path& out_dir, std::string& problem) {
  std::vector<fs::path> tars;
  for (const auto& entry : fs::directory_iterator(out_dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".tar") {
      tars.push_back(entry.path());
    }
  }
  if (tars.size() != 1) {
    problem = "left " + std::to_string(tars.size()) + " .tar files in " + out_dir.string() +
              " (a payload is exactly one)";
    return {};
  }
  return tars.front();
}

}  // namespace

bool is_test_payload(const fs::path& source_dir) {
  std::error_code ec;
  return fs::is_regular_file(source_dir / "Makefile", ec) && !fs::exists(source_dir / "Kbuild", ec);
}

std::vector<std::string> payload_exports(const fs::path& source_dir) {
  const fs::path makefile = source_dir / "Makefile";
  const std::string text = read_file(makefile);
  for (const auto line : split_lines(text)) {
    const auto trimmed = trim(line);
    if (!trimmed.starts_with(k_export_key)) {
      continue;
    }
    auto rest = trim(trimmed.substr(k_export_key.size()));
    if (!rest.starts_with(":=")) {
      continue;
    }
    std::vector<std::string> paths = split_words(rest.substr(2));
    if (paths.empty()) {
      break;
    }
    for (const auto& path : paths) {
      if (path.front() == '/' || path.find("..") != std::string::npos || path.size() > 256) {
        throw usage_error(makefile.string() + ": " + std::string(k_export_key) +
                          " names paths inside the kernel tree, not '" + path.substr(0, 256) + "'");
      }
    }
    return paths;
  }
  throw usage_error(makefile.string() + ": no '" + std::string(k_export_key) +
                    " := path...' line (the tree's files the payload is built from)");
}

fs::path build_payload(const PayloadBuildSpec& spec, git::Store& store, const git_oid& commit,
                       ProcessRunner& runner) {
  const auto exports = payload_exports(spec.source_dir);
  std::error_code ec;
  fs::remove_all(spec.out_dir, ec);
  fs::create_directories(spec.out_dir);
  export_paths(store, commit, exports, spec.out_dir / "src");

  ProcessSpec make;
  make.argv = {"make",
               "-f",
               fs::absolute(spec.source_dir / "Makefile").string(),
               "-C",
               fs::absolute(spec.out_dir).string(),
               "SRC=" + fs::absolute(spec.out_dir / "src").string(),
               "KSRC=" + fs::absolute(spec.kernel_src).string(),
               "KBUILD=" + fs::absolute(spec.kernel_build_dir).string(),
               "OUT=" + fs::absolute(spec.out_dir).string(),
               "KCC=" + spec.cc,
               "JOBS=" + std::to_string(spec.jobs)};
  make.env = spec.env;
  make.timeout = k_payload_timeout;
  make.kill_grace = std::chrono::seconds(10);
  make.log_file = spec.out_dir / "build.log";
  const ProcessResult result = runner.run(make);
  std::string problem;
  const fs::path tar = result.ok() ? the_tar(spec.out_dir, problem) : fs::path{};
  if (!result.ok() || tar.empty()) {
    const std::string log =
        fs::exists(spec.out_dir / "build.log") ? read_file(spec.out_dir / "build.log") : "";
    throw infra_error("building the test payload " + spec.source_dir.string() + ": " +
                      format_command(make.argv) + ": " +
                      (result.ok() ? problem : result.describe()) + "\n" +
                      last_lines(log + result.out + result.err, 15));
  }
  // The exported sources are the build's input, not the payload.
  fs::remove_all(spec.out_dir / "src", ec);
  return tar;
}

}  // namespace kseries::kernel
