// The kernel builder's proof that a build is its commit's: the checkout
// against the snapshot taken before make, the files make read against the
// commit, and the restoring of what another program changed
// (kernel_build.h).
#include <string>
#include <vector>

#include "git/checkout.h"
#include "git/tree_patch.h"
#include "kernel/kernel_build.h"
#include "kernel/kernel_build_job.h"
#include "kernel/source_check.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

// Throws SourcesChanged when a file of the checkout is not as it was before
// make (any write: content, a touch, a replacement).
void KernelBuilder::check_unchanged(const Job& job, const std::string& when) const {
  const TreeSnapshot after = snapshot_tree(job.dir / "src");
  const auto all = changed_paths(job.before, after, after.size() + job.before.size());
  if (all.empty()) {
    // Written in the snapshot's own tick, a file can change and keep its
    // stat: those few are checked by content.
    throw_if_not_commit(job, racy_paths(job.before, after));
    return;
  }
  std::string first;
  for (std::size_t i = 0; i < all.size() && i < 3; ++i) {
    first += (i ? ", " : "") + all[i];
  }
  throw SourcesChanged{"the source tree changed " + when + ": " + std::to_string(all.size()) +
                           " file(s) (" + first + (all.size() > 3 ? ", ..." : "") + ")",
                       all};
}

// Every source file make read holds the commit's bytes (or the target's
// tree patch's); else throws SourcesChanged.
SourceCheck KernelBuilder::check_sources_read(const Job& job) const {
  SourceCheck check = throw_if_not_commit(job, files_make_read(job.dir / "build", job.dir / "src"));
  job.request.progress("sources: " + std::to_string(check.files.size()) +
                       " file(s) make read checked against tree " + job.tree_id.substr(0, 12) +
                       ": all hold the commit's bytes");
  return check;
}

// PATHS in the checkout against the commit (and the tree patch); throws
// SourcesChanged naming the first that differs.
SourceCheck KernelBuilder::throw_if_not_commit(const Job& job,
                                               const std::vector<std::string>& paths) const {
  SourceCheck check =
      kernel::check_sources(m_store, job.request.commit, job.dir / "src", paths, job.patched);
  if (!check.mismatches.empty()) {
    std::vector<std::string> paths_to_restore;
    for (const auto& line : check.mismatches) {
      paths_to_restore.push_back(line.substr(0, line.find(": ")));
    }
    throw SourcesChanged{
        "the checkout is not commit " + git::to_hex(job.request.commit).substr(0, 12) + ": " +
            check.mismatches.front() +
            (check.mismatches.size() > 1
                 ? " (and " + std::to_string(check.mismatches.size() - 1) + " more)"
                 : ""),
        paths_to_restore};
  }
  return check;
}

// The files PATHS (as the snapshots name them) back to the commit's bytes;
// the next checkout then finds the tree it expects, and the tree patch is
// applied again over it.
void KernelBuilder::restore_sources(Job& job, const std::vector<std::string>& paths) {
  for (const auto& entry : paths) {
    std::string path = entry;
    for (const std::string suffix : {" (added)", " (removed)"}) {
      if (path.ends_with(suffix)) {
        path.resize(path.size() - suffix.size());
      }
    }
    const fs::path file = job.dir / "src" / path;
    const auto content = git::file_at(m_store, job.request.commit, path);
    std::error_code ec;
    fs::remove(file, ec);
    if (content) {
      fs::create_directories(file.parent_path());
      write_file(file, *content);
    }
  }
  // Another kseries may have moved the checkout's record too: start from a
  // fresh look at it.
  git::SourceTree source(job.dir / "src", job.dir / "src.commit");
  source.move_to(m_store, job.request.commit);
}

}  // namespace kseries::kernel
