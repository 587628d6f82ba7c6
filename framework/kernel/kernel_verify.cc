#include "kernel/kernel_verify.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

namespace {

// vmlinux with debug information runs to hundreds of MiB: streamed.
std::string sha256_of_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return "";
  }
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<char> buffer(std::size_t{1} << 20);
  ssize_t n = 0;
  while ((n = ::read(fd, buffer.data(), buffer.size())) > 0) {
    EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (n < 0) {
    return "";
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &length);
  static const char* const k_hex = "0123456789abcdef";
  std::string text;
  for (unsigned int i = 0; i < length; ++i) {
    text += k_hex[digest[i] >> 4];
    text += k_hex[digest[i] & 15];
  }
  return text;
}

std::string blob_of_text(const std::string& text) {
  git_oid oid;
  git::check(git_odb_hash(&oid, text.data(), text.size(), GIT_OBJECT_BLOB), "cannot hash");
  return git::to_hex(oid);
}

std::vector<std::string> artifact_files(const std::string& image) {
  return {image, "vmlinux", "System.map", "config"};
}

std::string string_at(const nlohmann::json& json, const char* key) {
  return json.contains(key) && json[key].is_string() ? json[key].get<std::string>() : "";
}

// The parts of KERNEL_DIR/build.json the checks read; throws nothing: a
// file that does not parse is a problem of the kernel, not an error.
nlohmann::json read_record(const fs::path& kernel_dir, std::string& problem) {
  try {
    auto json = parse_json_text(read_file(kernel_dir / "build.json"));
    if (!json.is_object()) {
      problem = "build.json is not a JSON object";
      return {};
    }
    return json;
  } catch (const std::exception& e) {
    problem = std::string("build.json unreadable: ") + e.what();
    return {};
  }
}

// The record's facts every check needs; "" when they are all there.
std::string record_gaps(const nlohmann::json& json) {
  if (!json.contains("source_check") || !json["source_check"].is_object()) {
    return "no record of the sources it was built from (stored by a kseries before "
           "2026-12-06, which trusted the checkout; it is never reused: a build makes it "
           "again, proven)";
  }
  if (!json.contains("artifacts") || !json["artifacts"].is_object()) {
    return "no digests of its artifacts in build.json";
  }
  return "";
}

void check_artifacts(const fs::path& dir, const nlohmann::json& json, bool digests,
                     std::vector<std::string>& problems) {
  const auto& artifacts = json["artifacts"];
  for (const auto& file : artifact_files(string_at(json, "image"))) {
    if (!artifacts.contains(file) || !artifacts[file].is_object()) {
      problems.push_back(file + ": no digest recorded");
      continue;
    }
    const auto& want = artifacts[file];
    std::error_code ec;
    const auto size = fs::file_size(dir / file, ec);
    if (ec) {
      problems.push_back(file + ": missing");
      continue;
    }
    if (!want.contains("bytes") || want["bytes"] != size) {
      problems.push_back(file + ": " + std::to_string(size) + " bytes, the record says " +
                         (want.contains("bytes") ? want["bytes"].dump() : "nothing"));
      continue;
    }
    if (digests && string_at(want, "sha256") != sha256_of_file(dir / file)) {
      problems.push_back(file +
                         ": its SHA-256 is not the one recorded (changed since it was "
                         "stored)");
    }
  }
}

}  // namespace

nlohmann::json source_record(const SourceCheck& check,
                             const std::map<std::string, std::string>& patched,
                             std::size_t snapshot_files) {
  return {{"method",
           "every file make read (the .cmd dependency lists) holds the commit's blob; no file "
           "of the checkout changed while make ran (stat snapshot)"},
          {"files_read", check.files.size()},
          {"sources_blob", blob_of_text(manifest_text(check))},
          {"tree_patch_files", patched},
          {"snapshot_files", snapshot_files}};
}

nlohmann::json artifact_digests(const fs::path& dir, const std::string& image) {
  nlohmann::json digests = nlohmann::json::object();
  for (const auto& file : artifact_files(image)) {
    std::error_code ec;
    const auto size = fs::file_size(dir / file, ec);
    if (!ec) {
      digests[file] = {{"sha256", sha256_of_file(dir / file)}, {"bytes", size}};
    }
  }
  return digests;
}

std::string record_problem(const fs::path& kernel_dir, const std::string& tree) {
  std::string problem;
  const auto json = read_record(kernel_dir, problem);
  if (!problem.empty()) {
    return problem;
  }
  if (problem = record_gaps(json); !problem.empty()) {
    return problem;
  }
  if (!tree.empty() && string_at(json, "tree") != tree) {
    return "it was built from tree " + string_at(json, "tree").substr(0, 12) + ", not " +
           tree.substr(0, 12);
  }
  std::string manifest;
  try {
    manifest = read_file(kernel_dir / k_sources_file);
  } catch (const Error&) {
    return std::string("no ") + k_sources_file;
  }
  if (blob_of_text(manifest) != string_at(json["source_check"], "sources_blob")) {
    return std::string(k_sources_file) + " is not the one recorded";
  }
  std::vector<std::string> problems;
  check_artifacts(kernel_dir, json, false, problems);
  return problems.empty() ? "" : problems.front();
}

namespace {

// sources.tsv against the recorded commit in STORE.
void check_manifest(const git::Store& store, const fs::path& dir, const nlohmann::json& json,
                    StoredKernel& kernel) {
  const auto commit = git::from_hex(kernel.commit);
  git::TreePtr tree = store.commit_tree(commit);
  const std::string tree_id = git::to_hex(*git_tree_id(tree.get()));
  if (tree_id != string_at(json, "tree")) {
    kernel.problems.push_back("commit " + kernel.commit.substr(0, 12) + " has tree " +
                              tree_id.substr(0, 12) + ", the record says " +
                              string_at(json, "tree").substr(0, 12));
  }
  const auto& patched = json["source_check"].value("tree_patch_files", nlohmann::json::object());
  std::string text;
  try {
    text = read_file(dir / k_sources_file);
  } catch (const Error&) {
    kernel.problems.push_back(std::string("no ") + k_sources_file);
    return;
  }
  if (blob_of_text(text) != string_at(json["source_check"], "sources_blob")) {
    kernel.problems.push_back(std::string(k_sources_file) + " is not the one recorded");
  }
  std::size_t checked = 0;
  for (const auto& [path, blob] : parse_manifest(text)) {
    std::string want;
    if (patched.is_object() && patched.contains(path) && patched[path].is_string()) {
      want = patched[path].get<std::string>();
    } else {
      git_tree_entry* raw = nullptr;
      if (git_tree_entry_bypath(&raw, tree.get(), path.c_str()) == 0) {
        want =
            git_tree_entry_type(raw) == GIT_OBJECT_BLOB ? git::to_hex(*git_tree_entry_id(raw)) : "";
        git_tree_entry_free(raw);
      }
    }
    ++checked;
    if (want != blob && kernel.problems.size() < 20) {
      kernel.problems.push_back("built from " + path + " blob " + blob.substr(0, 12) + ", commit " +
                                kernel.commit.substr(0, 12) + " has " +
                                (want.empty() ? "no such file" : want.substr(0, 12)));
    }
  }
  kernel.facts = std::to_string(checked) + " source file(s) against commit " +
                 kernel.commit.substr(0, 12) + "'s tree";
}

// The key is a hash of what the build was asked: recomputed from the record.
void check_key(const fs::path& dir, const nlohmann::json& json, StoredKernel& kernel) {
  if (!json.contains("key_inputs") || !json["key_inputs"].is_object()) {
    kernel.problems.push_back("no key inputs recorded");
    return;
  }
  std::string config;
  try {
    config = read_file(dir / "config");
  } catch (const Error&) {
    return;  // the artifacts' check says so
  }
  const auto& inputs = json["key_inputs"];
  const std::string key =
      blob_of_text(string_at(json, "tree") + "\n" + string_at(inputs, "tree_patch") + config +
                   "\n" + string_at(json, "compiler") + "\n" + string_at(inputs, "flags"));
  if (key != kernel.key) {
    kernel.problems.push_back("its key is " + key.substr(0, 12) +
                              " for what its record says it was built from, not " +
                              kernel.key.substr(0, 12));
  }
}

StoredKernel verify_one(const git::Store& store, const fs::path& dir) {
  StoredKernel kernel;
  kernel.dir = dir;
  kernel.key = dir.filename().string();
  std::string problem;
  const auto json = read_record(dir, problem);
  if (!problem.empty()) {
    kernel.problems.push_back(problem);
    return kernel;
  }
  kernel.target = string_at(json, "target");
  kernel.commit = string_at(json, "commit");
  if (problem = record_gaps(json); !problem.empty()) {
    kernel.problems.push_back(problem);
    return kernel;
  }
  git_oid commit{};
  if (kernel.commit.size() != GIT_OID_HEXSZ ||
      git_oid_fromstrn(&commit, kernel.commit.data(), kernel.commit.size()) != 0 ||
      !store.has_object(commit)) {
    kernel.problems.push_back("its commit " + kernel.commit + " is not in the store");
    return kernel;
  }
  check_manifest(store, dir, json, kernel);
  check_key(dir, json, kernel);
  check_artifacts(dir, json, true, kernel.problems);
  return kernel;
}

// ROOT/targets/*/kernels/COMMIT -> key: the commit must have the tree the
// kernel was built from.
void check_indexes(const git::Store& store, const fs::path& root,
                   std::vector<StoredKernel>& kernels) {
  std::error_code ec;
  for (const auto& target : fs::directory_iterator(root / "targets", ec)) {
    for (const auto& index : fs::directory_iterator(target.path() / "kernels", ec)) {
      const std::string commit_hex = index.path().filename().string();
      std::string key;
      try {
        key = std::string(trim(read_file(index.path(), 4096)));
      } catch (const Error&) {
        continue;
      }
      auto kernel = std::find_if(kernels.begin(), kernels.end(),
                                 [&](const StoredKernel& k) { return k.key == key; });
      git_oid commit{};
      if (kernel == kernels.end() || commit_hex.size() != GIT_OID_HEXSZ ||
          git_oid_fromstrn(&commit, commit_hex.data(), commit_hex.size()) != 0 ||
          !store.has_object(commit)) {
        continue;
      }
      std::string problem;
      const auto json = read_record(kernel->dir, problem);
      if (!problem.empty()) {
        continue;
      }
      const std::string tree = git::to_hex(*git_tree_id(store.commit_tree(commit).get()));
      if (tree != string_at(json, "tree")) {
        kernel->problems.push_back("the index " + index.path().string() +
                                   " files it under commit " + commit_hex.substr(0, 12) +
                                   ", whose tree " + tree.substr(0, 12) +
                                   " is not the one it was built from");
      }
    }
  }
}

}  // namespace

std::vector<StoredKernel> verify_stored_kernels(const git::Store& store, const fs::path& root,
                                                const std::string& target) {
  std::vector<StoredKernel> kernels;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "kernels", ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.find('.') != std::string::npos ||
        !fs::exists(entry.path() / "build.json")) {
      continue;  // *.partial.PID, *.removed: never read
    }
    StoredKernel kernel = verify_one(store, entry.path());
    if (target.empty() || kernel.target == target) {
      kernels.push_back(std::move(kernel));
    }
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const StoredKernel& a, const StoredKernel& b) { return a.key < b.key; });
  check_indexes(store, root, kernels);
  return kernels;
}

}  // namespace kseries::kernel
