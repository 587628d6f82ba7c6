#include "git/point_release.h"

#include <map>

#include "core/text.h"
#include "git/blob_reader.h"
#include "git/tree_import.h"
#include "sys/files.h"

namespace kseries::git {

namespace fs = std::filesystem;

std::optional<std::string> verified_release_in(const std::string& readme) {
  constexpr std::string_view k_key = "Verified on: ";
  for (const auto raw : split_lines(readme)) {
    const auto line = trim(raw);
    if (!starts_with(line, k_key)) {
      continue;
    }
    auto rest = line.substr(k_key.size());
    const auto end = rest.find_first_of(" \t,;(");
    rest = rest.substr(0, end);
    while (!rest.empty() && rest.back() == '.') {
      rest.remove_suffix(1);
    }
    if (!rest.empty()) {
      return std::string(rest);
    }
  }
  return std::nullopt;
}

std::optional<std::string> verified_release(const fs::path& source) {
  for (const char* name : {"README.md", "README"}) {
    std::error_code ec;
    if (fs::is_regular_file(source / name, ec)) {
      return verified_release_in(read_file(source / name));
    }
  }
  return std::nullopt;
}

std::string ReleaseDrift::text() const {
  std::string out = "point release: " + series + " was verified on " + verified + ", the base is " +
                    (base.empty() ? "of unknown release" : base) + "; ";
  if (differ.empty()) {
    return out + "none of the " + std::to_string(touched.size()) +
           " file(s) it changes differs from the one it was made against";
  }
  out += std::to_string(differ.size()) + " of the " + std::to_string(touched.size()) +
         " file(s) it changes " + (differ.size() == 1 ? "differs" : "differ") +
         " from the one it was made against (a hunk there may apply at an offset or conflict):";
  for (const auto& file : differ) {
    out += " " + file;
  }
  return out;
}

namespace {

struct Preimage {
  std::string blob;  // the abbreviated id of the diff's `index` line
  std::size_t series = 0;
};

// Each path's first preimage in the chain; files the chain creates are
// kept with an empty blob (a later change to them is not the base's).
std::map<std::string, Preimage> chain_preimages(const std::vector<const Series*>& chain) {
  std::map<std::string, Preimage> first;
  for (std::size_t s = 0; s < chain.size(); ++s) {
    for (const auto& patch : chain[s]->patches) {
      git_diff* raw = nullptr;
      if (git_diff_from_buffer(&raw, patch.diff.data(), patch.diff.size()) != 0) {
        continue;  // the apply reports it
      }
      const DiffPtr diff(raw);
      for (std::size_t d = 0; d < git_diff_num_deltas(diff.get()); ++d) {
        const git_diff_delta* delta = git_diff_get_delta(diff.get(), d);
        const char* path = delta->old_file.path ? delta->old_file.path : delta->new_file.path;
        if (!path || first.count(path)) {
          continue;
        }
        Preimage pre{"", s};
        if (delta->status != GIT_DELTA_ADDED && !git_oid_is_zero(&delta->old_file.id)) {
          pre.blob = to_hex(delta->old_file.id).substr(0, delta->old_file.id_abbrev);
        }
        first.emplace(path, pre);
      }
    }
  }
  return first;
}

// The id of PATH's blob at COMMIT, hex; empty when there is none.
std::string blob_at(const Store& store, const git_oid& commit, const std::string& path) {
  const TreePtr tree = store.commit_tree(commit);
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree.get(), path.c_str()) != 0) {
    return "";
  }
  const TreeEntryPtr entry(raw);
  return to_hex(*git_tree_entry_id(entry.get()));
}

}  // namespace

std::vector<ReleaseDrift> release_drifts(const Store& store, const git_oid& base,
                                         const std::vector<const Series*>& chain) {
  std::vector<ReleaseDrift> drifts;
  std::optional<std::string> base_release_text;
  std::optional<std::map<std::string, Preimage>> preimages;
  for (std::size_t s = 0; s < chain.size(); ++s) {
    const auto verified = verified_release(chain[s]->source);
    if (!verified) {
      continue;
    }
    if (!base_release_text) {
      base_release_text = base_release(store, base).kernel;
    }
    if (*verified == *base_release_text) {
      continue;
    }
    if (!preimages) {
      preimages = chain_preimages(chain);
    }
    ReleaseDrift drift{chain[s]->name, *verified, *base_release_text, {}, {}};
    for (const auto& [path, pre] : *preimages) {
      if (pre.series != s || pre.blob.empty()) {
        continue;
      }
      drift.touched.push_back(path);
      if (!starts_with(blob_at(store, base, path), pre.blob)) {
        drift.differ.push_back(path);
      }
    }
    drifts.push_back(std::move(drift));
  }
  return drifts;
}

}  // namespace kseries::git
