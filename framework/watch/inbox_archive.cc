#include "watch/inbox_archive.h"

#include <git2.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "sys/interrupt.h"

namespace kseries::watch {

namespace fs = std::filesystem;

namespace {

using RevwalkPtr = std::unique_ptr<git_revwalk, git::Deleter<git_revwalk, git_revwalk_free>>;

// "http://host:8080/nvdimm" -> {"http://host:8080", "/nvdimm"}.
std::pair<std::string, std::string> split_url(std::string_view url) {
  const auto scheme = url.find("://");
  const auto path =
      scheme == std::string_view::npos ? std::string_view::npos : url.find('/', scheme + 3);
  if (path == std::string_view::npos) {
    return {std::string(url), ""};
  }
  std::string tail(url.substr(path));
  while (!tail.empty() && tail.back() == '/') {
    tail.pop_back();
  }
  return {std::string(url.substr(0, path)), tail};
}

git::RepoPtr open_mirror(const fs::path& dir) {
  git_repository* repo = nullptr;
  git::check(git_repository_open_bare(&repo, dir.c_str()), "open the epoch mirror " + dir.string());
  return git::RepoPtr(repo);
}

git::CommitPtr lookup_commit(git_repository* repo, const std::string& hex) {
  const git_oid oid = git::from_hex(hex);
  git_commit* commit = nullptr;
  if (git_commit_lookup(&commit, repo, &oid) < 0) {
    return nullptr;
  }
  return git::CommitPtr(commit);
}

// The text of `m` in COMMIT's tree; nullopt when it has none (a purge).
std::optional<std::string> message_of(git_repository* repo, git_commit* commit) {
  git_tree* raw_tree = nullptr;
  git::check(git_commit_tree(&raw_tree, commit), "read a commit's tree");
  const git::TreePtr tree(raw_tree);
  const git_tree_entry* entry = git_tree_entry_byname(tree.get(), "m");
  if (!entry || git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
    return std::nullopt;
  }
  git_blob* raw_blob = nullptr;
  git::check(git_blob_lookup(&raw_blob, repo, git_tree_entry_id(entry)), "read a message blob");
  const git::BlobPtr blob(raw_blob);
  const auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
  // Only the headers are read: the first part is all parse_archive_message takes.
  const std::size_t head = std::min(size, k_max_message_header_bytes + 4096);
  return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())), head);
}

}  // namespace

std::vector<Epoch> parse_manifest(std::string_view text, std::string_view inbox_url) {
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object()) {
    throw usage_error("the inbox manifest is not a JSON object");
  }
  const auto [origin, path] = split_url(inbox_url);
  const std::string prefix = path + "/git/";
  std::vector<Epoch> epochs;
  for (const auto& [key, value] : json.items()) {
    if (!starts_with(key, prefix) || key.size() <= prefix.size() + 4 ||
        key.substr(key.size() - 4) != ".git") {
      continue;
    }
    const std::string number = key.substr(prefix.size(), key.size() - prefix.size() - 4);
    if (number.empty() || number.size() > 6 ||
        !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    Epoch epoch;
    epoch.number = std::stoi(number);
    epoch.url = origin + key;
    if (value.is_object()) {
      if (value.contains("modified") && value["modified"].is_number_integer()) {
        epoch.modified = value["modified"].get<std::int64_t>();
      }
      if (value.contains("fingerprint") && value["fingerprint"].is_string()) {
        epoch.fingerprint = value["fingerprint"].get<std::string>().substr(0, 80);
      }
    }
    epochs.push_back(epoch);
  }
  std::sort(epochs.begin(), epochs.end(),
            [](const Epoch& a, const Epoch& b) { return a.number < b.number; });
  return epochs;
}

std::string gunzip(std::string_view data, std::size_t max_bytes) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) {
    throw infra_error("zlib: inflateInit2 failed");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, inflateEnd);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      throw usage_error(std::string("not gzip data: ") + (stream.msg ? stream.msg : "zlib error"));
    }
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (out.size() > max_bytes) {
      throw usage_error("gzip data inflates to more than " + std::to_string(max_bytes >> 20) +
                        " MiB: refused");
    }
    if (rc == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      throw usage_error("gzip data ends early");
    }
  }
  return out;
}

EpochMirror::EpochMirror(fs::path dir) : m_dir(std::move(dir)) {}

std::string EpochMirror::fetch(ProcessRunner& runner, const std::string& url,
                               std::uintmax_t max_bytes) const {
  if (!fs::exists(m_dir / "HEAD")) {
    ProcessSpec init;
    init.argv = {"git", "init", "--bare", "-q", m_dir.string()};
    const auto result = runner.run(init);
    if (!result.ok()) {
      throw infra_error("git init " + m_dir.string() + ": " + result.describe() + ": " +
                        std::string(trim(result.err)).substr(0, 300));
    }
  }
  ProcessSpec spec;
  // The pack kept whole (unpackLimit 1), so the file cap is the download's;
  // no automatic gc running on after kseries.
  spec.argv = {"prlimit",   "--fsize=" + std::to_string(max_bytes),
               "--core=0",  "--",
               "git",       "--git-dir=" + m_dir.string(),
               "-c",        "fetch.unpackLimit=1",
               "-c",        "transfer.unpackLimit=1",
               "-c",        "gc.auto=0",
               "fetch",     "--quiet",
               "--no-tags", "--",
               url,         "+refs/heads/master:refs/heads/master"};
  spec.env = {{"GIT_TERMINAL_PROMPT", "0"}};
  spec.timeout = std::chrono::minutes(60);
  const auto result = runner.run(spec);
  if (!result.ok()) {
    const std::string err(trim(result.err));
    if (err.find("couldn't find remote ref") != std::string::npos) {
      return "";  // an epoch with no message yet
    }
    bool too_large = err.find("died of signal 25") != std::string::npos;
    for (const auto& entry : fs::directory_iterator(m_dir / "objects" / "pack")) {
      if (starts_with(entry.path().filename().string(), "tmp_pack_")) {
        too_large = too_large || fs::file_size(entry.path()) >= max_bytes;
        fs::remove(entry.path());
      }
    }
    if (too_large) {
      throw infra_error("git fetch " + url + ": the pack is larger than " +
                        std::to_string(max_bytes >> 20) + " MiB (--max-fetch-mib): stopped there");
    }
    throw infra_error("git fetch " + url + ": " + result.describe() + ": " + err.substr(0, 400));
  }
  const auto repo = open_mirror(m_dir);
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo.get(), "refs/heads/master") < 0) {
    return "";
  }
  return git::to_hex(oid);
}

bool EpochMirror::has_commit(const std::string& commit) const {
  const auto repo = open_mirror(m_dir);
  return lookup_commit(repo.get(), commit) != nullptr;
}

std::int64_t EpochMirror::commit_time(const std::string& commit) const {
  const auto repo = open_mirror(m_dir);
  const auto found = lookup_commit(repo.get(), commit);
  return found ? git_commit_time(found.get()) : 0;
}

std::string EpochMirror::last_before(const std::string& tip, std::int64_t time) const {
  const auto repo = open_mirror(m_dir);
  git_revwalk* raw = nullptr;
  git::check(git_revwalk_new(&raw, repo.get()), "walk the epoch mirror");
  const RevwalkPtr walk(raw);
  git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL);
  const git_oid start = git::from_hex(tip);
  git::check(git_revwalk_push(walk.get(), &start), "walk from " + tip);
  git_oid oid;
  std::size_t n = 0;
  while (git_revwalk_next(&oid, walk.get()) == 0) {
    if (++n % 1024 == 0) {
      throw_if_interrupted("reading the epoch mirror " + m_dir.string());
    }
    git_commit* commit = nullptr;
    git::check(git_commit_lookup(&commit, repo.get(), &oid), "read a commit");
    const git::CommitPtr held(commit);
    if (git_commit_time(commit) < time) {
      return git::to_hex(oid);
    }
  }
  return "";
}

void EpochMirror::walk(const std::string& from, std::int64_t after_time, const std::string& tip,
                       const std::function<void(const EpochMessage&)>& visit) const {
  const auto repo = open_mirror(m_dir);
  git_revwalk* raw = nullptr;
  git::check(git_revwalk_new(&raw, repo.get()), "walk the epoch mirror");
  const RevwalkPtr walk(raw);
  git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
  const git_oid start = git::from_hex(tip);
  git::check(git_revwalk_push(walk.get(), &start), "walk from " + tip);
  bool by_time = false;
  if (!from.empty()) {
    if (lookup_commit(repo.get(), from)) {
      const git_oid hide = git::from_hex(from);
      git::check(git_revwalk_hide(walk.get(), &hide), "walk after " + from);
    } else {
      by_time = true;
    }
  }
  git_oid oid;
  std::size_t n = 0;
  while (git_revwalk_next(&oid, walk.get()) == 0) {
    if (++n % 256 == 0) {
      throw_if_interrupted("reading the epoch mirror " + m_dir.string());
    }
    git_commit* raw_commit = nullptr;
    git::check(git_commit_lookup(&raw_commit, repo.get(), &oid), "read a commit");
    const git::CommitPtr commit(raw_commit);
    EpochMessage message;
    message.commit = git::to_hex(oid);
    message.time = git_commit_time(commit.get());
    if (by_time && message.time <= after_time) {
      continue;
    }
    const auto text = message_of(repo.get(), commit.get());
    if (!text) {
      continue;
    }
    message.message = parse_archive_message(*text);
    visit(message);
  }
}

}  // namespace kseries::watch
