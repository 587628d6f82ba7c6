#include "git/tree_import.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <iostream>

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"
#include "sys/interrupt.h"

namespace kseries::git {

namespace fs = std::filesystem;

namespace {

git_oid write_tree(git_repository* repo, const fs::path& dir, std::size_t& files,
                   const std::function<void(std::size_t)>& on_progress, bool& empty) {
  // Minutes of in-process work for a kernel tree: SIGINT/SIGTERM stop it
  // here (the extracted scratch copy is removed by the next import).
  throw_if_interrupted("while importing " + dir.string());
  git_treebuilder* raw = nullptr;
  check(git_treebuilder_new(&raw, repo, nullptr), "cannot create a tree");
  TreeBuilderPtr builder(raw);
  empty = true;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == ".git") {
      continue;
    }
    struct stat st;
    if (::lstat(entry.path().c_str(), &st) != 0) {
      throw infra_error("cannot stat " + entry.path().string());
    }
    git_oid oid;
    git_filemode_t mode;
    if (S_ISLNK(st.st_mode)) {
      std::string target(static_cast<size_t>(st.st_size) + 1, '\0');
      const ssize_t n = ::readlink(entry.path().c_str(), target.data(), target.size());
      if (n < 0) {
        throw infra_error("cannot read link " + entry.path().string());
      }
      target.resize(static_cast<size_t>(n));
      check(git_blob_create_from_buffer(&oid, repo, target.data(), target.size()),
            "cannot store " + entry.path().string());
      mode = GIT_FILEMODE_LINK;
    } else if (S_ISDIR(st.st_mode)) {
      bool sub_empty = true;
      oid = write_tree(repo, entry.path(), files, on_progress, sub_empty);
      if (sub_empty) {
        continue;  // git does not track empty directories
      }
      mode = GIT_FILEMODE_TREE;
    } else if (S_ISREG(st.st_mode)) {
      check(git_blob_create_from_disk(&oid, repo, entry.path().c_str()),
            "cannot store " + entry.path().string());
      mode = (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
      if (++files % 5000 == 0 && on_progress) {
        on_progress(files);
      }
    } else {
      continue;  // sockets, fifos: not source
    }
    check(git_treebuilder_insert(nullptr, builder.get(), name.c_str(), &oid, mode),
          "cannot add " + entry.path().string());
    empty = false;
  }
  git_oid tree;
  check(git_treebuilder_write(&tree, builder.get()), "cannot write tree of " + dir.string());
  return tree;
}

}  // namespace

git_oid write_tree_from_directory(git_repository* repo, const fs::path& dir,
                                  const std::function<void(std::size_t)>& on_progress) {
  std::size_t files = 0;
  bool empty = true;
  return write_tree(repo, dir, files, on_progress, empty);
}

std::string kernel_version_from_makefile(const std::string& makefile) {
  // "KEY = value" at the start of a line (KEY, spaces, '=', blanks, one word).
  auto value = [&](std::string_view key) -> std::string {
    for (const auto line : split_lines(makefile)) {
      if (!starts_with(line, key)) {
        continue;
      }
      size_t pos = key.size();
      while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) {
        ++pos;
      }
      if (pos >= line.size() || line[pos] != '=') {
        continue;
      }
      ++pos;
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) {
        ++pos;
      }
      size_t end = pos;
      while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) {
        ++end;
      }
      return std::string(line.substr(pos, end - pos));
    }
    return "";
  };
  const std::string version = value("VERSION");
  if (version.empty()) {
    return "";
  }
  return version + "." + value("PATCHLEVEL") + "." + value("SUBLEVEL") + value("EXTRAVERSION");
}

ImportedBase import_tarball(Store& store, const fs::path& tarball, const fs::path& scratch,
                            ProcessRunner& runner) {
  if (!fs::is_regular_file(tarball)) {
    throw usage_error("kernel source tarball not found: " + tarball.string() +
                      " (install linux-source-6.12, or pass --tarball or --tree/--base)");
  }
  std::string stem = tarball.filename().string();
  for (const char* suffix : {".tar.xz", ".tar.gz", ".tar.bz2", ".tar.zst", ".tar"}) {
    if (stem.size() > std::string(suffix).size() && stem.ends_with(suffix)) {
      stem.resize(stem.size() - std::string(suffix).size());
      break;
    }
  }
  ImportedBase base;
  base.branch = "base/" + stem;
  if (auto tip = store.branch_tip(base.branch)) {
    base.commit = *tip;
    base.reused = true;
    return base;
  }

  fs::remove_all(scratch);
  fs::create_directories(scratch);
  std::cerr << "kseries: extracting " << tarball.string() << " (once; ~20 s)\n";
  ProcessSpec tar;
  tar.argv = {"tar", "-xf", tarball.string(), "-C", scratch.string()};
  tar.timeout = std::chrono::minutes(10);
  const auto extracted = runner.run(tar);
  if (!extracted.ok()) {
    fs::remove_all(scratch);
    throw infra_error("tar failed on " + tarball.string() + " (" + extracted.describe() +
                      "): " + extracted.err.substr(0, 500));
  }
  std::vector<fs::path> tops;
  for (const auto& entry : fs::directory_iterator(scratch)) {
    tops.push_back(entry.path());
  }
  const fs::path top = tops.size() == 1 && fs::is_directory(tops[0]) ? tops[0] : scratch;
  base.version =
      fs::exists(top / "Makefile") ? kernel_version_from_makefile(read_file(top / "Makefile")) : "";

  std::cerr << "kseries: importing " << top.filename().string() << " into " << store.path().string()
            << " (once; ~1 min)\n";
  const git_oid tree_id = write_tree_from_directory(store.repo(), top, [](std::size_t files) {
    std::cerr << "kseries:   " << files << " files stored\n";
  });
  fs::remove_all(scratch);

  git_tree* tree = nullptr;
  check(git_tree_lookup(&tree, store.repo(), &tree_id), "cannot read the imported tree");
  TreePtr tree_owner(tree);
  git_signature* raw_sig = nullptr;
  check(git_signature_new(&raw_sig, k_import_name, k_import_email, k_import_time, 0),
        "cannot create signature");
  SignaturePtr signature(raw_sig);
  const std::string message = "Import " + tarball.filename().string() +
                              (base.version.empty() ? "" : " (" + base.version + ")") + "\n";
  check(git_commit_create(&base.commit, store.repo(), nullptr, signature.get(), signature.get(),
                          nullptr, message.c_str(), tree, 0, nullptr),
        "cannot create the base commit");
  store.set_branch(base.branch, base.commit, std::nullopt,
                   "kseries tree: import " + tarball.string());
  return base;
}

}  // namespace kseries::git
