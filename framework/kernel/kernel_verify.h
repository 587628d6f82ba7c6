#pragma once
// A stored kernel's record of what it was built from, and its checks: the
// cheap one every reuse makes (kernel_build.cc) and the whole one of
// `kseries build --verify` (every stored kernel of a work directory against
// the store, its artifacts against their digests, the indexes that point at
// it). See kernel/source_check.h for how the record is made.

#include <git2.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "git/store.h"
#include "kernel/source_check.h"

namespace kseries::kernel {

// The sources a kernel was built from, beside its build.json.
inline constexpr const char* k_sources_file = "sources.tsv";

// build.json's "source_check": how the sources were proven (the files make
// read and their number, sources.tsv's digest, the tree patch's files, the
// size of the stat snapshot unchanged across make).
nlohmann::json source_record(const SourceCheck& check,
                             const std::map<std::string, std::string>& patched,
                             std::size_t snapshot_files);

// build.json's "artifacts": the SHA-256 and size of each file a boot reads
// (the image, vmlinux, System.map, config) in DIR.
nlohmann::json artifact_digests(const std::filesystem::path& dir, const std::string& image);

// The check a reuse makes, in milliseconds: "" when KERNEL_DIR's record says
// it was built from tree TREE (hex) and proven so, its sources.tsv is the one
// recorded and its artifacts have their recorded sizes; else why not (a
// kernel stored by a kseries that kept no record is not reused).
std::string record_problem(const std::filesystem::path& kernel_dir, const std::string& tree);

// The whole check of one stored kernel.
struct StoredKernel {
  std::filesystem::path dir;
  std::string key, target, commit;
  std::vector<std::string> problems;  // empty: verified
  std::string facts;                  // what was checked, one line
};

// Every kernel under ROOT/kernels (of TARGET, or all when it is ""),
// checked against STORE: the record exists and names a commit the store
// has, whose tree is the recorded tree; every file of sources.tsv is the
// commit's blob (or the tree patch's); the artifacts' digests; the key
// recomputed from the record; and every index ROOT/targets/*/kernels/COMMIT
// that points at it names a commit of the same tree.
std::vector<StoredKernel> verify_stored_kernels(const git::Store& store,
                                                const std::filesystem::path& root,
                                                const std::string& target);

}  // namespace kseries::kernel
