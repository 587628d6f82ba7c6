#include "git/tree_import.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <iostream>

#include "core/error.h"
#include "core/text.h"
#include "git/blob_reader.h"
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

std::string BaseRelease::describe() const {
  std::string text = kernel.empty() ? "unknown version" : kernel;
  if (!debian_package.empty()) {
    text += " (Debian " + debian_package + ")";
  }
  return text;
}

std::string render_base_release(const BaseRelease& release) {
  return "kernel: " + release.kernel + "\ndebian-package: " + release.debian_package +
         "\ntarball: " + release.tarball +
         "\ntarball-size: " + std::to_string(release.tarball_size) +
         "\ntarball-mtime: " + std::to_string(release.tarball_mtime) + "\n";
}

std::optional<BaseRelease> parse_base_release(const std::string& text) {
  BaseRelease release;
  bool has_kernel = false, has_size = false, has_mtime = false;
  for (const auto line : split_lines(text)) {
    const auto colon = line.find(": ");
    const auto colon_empty = line.find(':');
    if (colon_empty == std::string_view::npos) {
      continue;
    }
    const std::string key(line.substr(0, colon_empty));
    const std::string value(colon == std::string_view::npos ? "" : line.substr(colon + 2));
    try {
      if (key == "kernel") {
        release.kernel = value;
        has_kernel = true;
      } else if (key == "debian-package") {
        release.debian_package = value;
      } else if (key == "tarball") {
        release.tarball = value;
      } else if (key == "tarball-size") {
        release.tarball_size = std::stoull(value);
        has_size = true;
      } else if (key == "tarball-mtime") {
        release.tarball_mtime = std::stoll(value);
        has_mtime = true;
      }
    } catch (const std::exception&) {
      return std::nullopt;  // a number that is none
    }
  }
  if (!has_kernel || !has_size || !has_mtime) {
    return std::nullopt;
  }
  return release;
}

namespace {

constexpr const char* k_notes_ref = "refs/notes/kseries-base";

using NotePtr = std::unique_ptr<git_note, Deleter<git_note, git_note_free>>;

void write_base_release(Store& store, const git_oid& commit, const BaseRelease& release) {
  git_signature* raw_sig = nullptr;
  check(git_signature_new(&raw_sig, k_import_name, k_import_email, k_import_time, 0),
        "cannot create signature");
  SignaturePtr signature(raw_sig);
  git_oid note;
  const std::string text = render_base_release(release);
  if (git_note_create(&note, store.repo(), k_notes_ref, signature.get(), signature.get(), &commit,
                      text.c_str(), 1) != 0) {
    // Another kseries imported the same tarball and wrote its note first
    // (the notes ref moved under us): the same text, nothing lost.
    if (const auto theirs = read_base_release(store, commit);
        !theirs || render_base_release(*theirs) != text) {
      throw infra_error("cannot store the release of base " + to_hex(commit) + ": " +
                        last_error_message());
    }
  }
}

// The tarball's size and mtime, as the release stores them.
void stat_tarball(const fs::path& tarball, BaseRelease& release) {
  struct stat st;
  if (::stat(tarball.c_str(), &st) != 0) {
    throw infra_error("cannot stat " + tarball.string());
  }
  release.tarball = fs::absolute(tarball).lexically_normal().string();
  release.tarball_size = static_cast<std::uintmax_t>(st.st_size);
  release.tarball_mtime = static_cast<std::int64_t>(st.st_mtime);
}

// The kernel version of the top Makefile inside TARBALL, without extracting
// the rest (tar stops at the first */Makefile one level down: ~1 s).
std::string tarball_kernel_version(const fs::path& tarball, ProcessRunner& runner) {
  ProcessSpec tar;
  tar.argv = {"tar",
              "-xOf",
              tarball.string(),
              "--wildcards",
              "--no-wildcards-match-slash",
              "--occurrence=1",
              "*/Makefile"};
  tar.timeout = std::chrono::minutes(5);
  const auto result = runner.run(tar);
  return result.ok() ? kernel_version_from_makefile(result.out) : "";
}

git_oid import_tree(Store& store, const fs::path& tarball, const fs::path& scratch,
                    ProcessRunner& runner, BaseRelease& release) {
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
  release.kernel =
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
  // The message names the Makefile's version only: the same tarball gives
  // the same commit on every machine, whatever package holds it.
  const std::string message = "Import " + tarball.filename().string() +
                              (release.kernel.empty() ? "" : " (" + release.kernel + ")") + "\n";
  git_oid commit;
  check(git_commit_create(&commit, store.repo(), nullptr, signature.get(), signature.get(), nullptr,
                          message.c_str(), tree, 0, nullptr),
        "cannot create the base commit");
  return commit;
}

}  // namespace

std::optional<BaseRelease> read_base_release(const Store& store, const git_oid& commit) {
  git_note* raw = nullptr;
  if (git_note_read(&raw, store.repo(), k_notes_ref, &commit) != 0) {
    return std::nullopt;
  }
  const NotePtr note(raw);
  const char* message = git_note_message(note.get());
  return message ? parse_base_release(message) : std::nullopt;
}

BaseRelease base_release(const Store& store, const git_oid& commit) {
  if (auto stored = read_base_release(store, commit)) {
    return *stored;
  }
  BaseRelease release;
  if (const auto makefile = read_blob_at(store, commit, "Makefile")) {
    release.kernel = kernel_version_from_makefile(*makefile);
  }
  return release;
}

std::string debian_package_of(const fs::path& file, ProcessRunner& runner) {
  if (!find_program("dpkg-query")) {
    return "";
  }
  std::error_code ec;
  const fs::path path = fs::canonical(file, ec);
  ProcessSpec owner;
  owner.argv = {"dpkg-query", "-S", ec ? file.string() : path.string()};
  owner.timeout = std::chrono::minutes(1);
  const auto owned = runner.run(owner);
  // "linux-source-6.12: /usr/src/linux-source-6.12.tar.xz"; one package.
  const auto colon = owned.out.find(": ");
  if (!owned.ok() || colon == std::string::npos ||
      owned.out.substr(0, colon).find_first_of(", \n") != std::string::npos) {
    return "";
  }
  const std::string package = owned.out.substr(0, colon);
  ProcessSpec version;
  version.argv = {"dpkg-query", "-W", "-f", "${Version}", package};
  version.timeout = std::chrono::minutes(1);
  const auto found = runner.run(version);
  const std::string text(trim(found.out));
  if (!found.ok() || text.empty() || text.find_first_of(" \n") != std::string::npos) {
    return "";
  }
  return package + " " + text;
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
  stat_tarball(tarball, base.release);
  const auto tip = store.branch_tip(base.branch);
  if (tip) {
    auto stored = read_base_release(store, *tip);
    if (!stored) {
      // Imported by a kseries that stored no release: the tarball's own
      // Makefile says whether it is still the release imported.
      const auto makefile = read_blob_at(store, *tip, "Makefile");
      const std::string imported = makefile ? kernel_version_from_makefile(*makefile) : "";
      if (imported == tarball_kernel_version(tarball, runner)) {
        base.release.kernel = imported;
        base.release.debian_package = debian_package_of(tarball, runner);
        write_base_release(store, *tip, base.release);
        stored = base.release;
      } else {
        stored = BaseRelease{imported, "", "", 0, 0};
      }
    }
    if (stored->tarball_size == base.release.tarball_size &&
        stored->tarball_mtime == base.release.tarball_mtime) {
      base.commit = *tip;
      base.release = *stored;
      base.reused = true;
      return base;
    }
    base.replaced = stored;
    std::cerr << "kseries: " << tarball.string() << " changed since " << base.branch
              << " was imported from it (" << stored->describe() << "): importing it anew\n";
  }
  base.release.debian_package = debian_package_of(tarball, runner);
  base.commit = import_tree(store, tarball, scratch, runner, base.release);
  write_base_release(store, base.commit, base.release);
  store.set_branch(base.branch, base.commit, tip, "kseries tree: import " + tarball.string());
  return base;
}

}  // namespace kseries::git
