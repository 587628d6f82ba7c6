#include "git/apply.h"

#include <chrono>

#include "core/elapsed.h"
#include "core/error.h"
#include "core/text.h"
#include "git/apply_base.h"
#include "git/diff_check.h"
#include "git/hunk_locator.h"
#include "git/path_conflict.h"
#include "git/point_release.h"
#include "sys/interrupt.h"

namespace kseries::git {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> blob_lines(git_repository* repo, git_tree* tree, const char* path,
                                    bool& exists) {
  git_tree_entry* raw = nullptr;
  exists = git_tree_entry_bypath(&raw, tree, path) == 0;
  std::vector<std::string> lines;
  if (!exists) {
    return lines;
  }
  TreeEntryPtr entry(raw);
  git_blob* blob = nullptr;
  if (git_blob_lookup(&blob, repo, git_tree_entry_id(entry.get())) < 0) {
    return lines;
  }
  BlobPtr owner(blob);
  const std::string_view content(static_cast<const char*>(git_blob_rawcontent(blob)),
                                 static_cast<size_t>(git_blob_rawsize(blob)));
  for (const auto line : split_lines(content)) {
    lines.emplace_back(line);
  }
  return lines;
}

// Which file and hunk failed, and where the hunk's context does sit.
std::string diagnose(git_repository* repo, git_tree* tree, git_diff* diff) {
  std::string report;
  const size_t deltas = git_diff_num_deltas(diff);
  for (size_t d = 0; d < deltas; ++d) {
    git_patch* raw = nullptr;
    if (git_patch_from_diff(&raw, diff, d) < 0 || raw == nullptr) {
      continue;
    }
    PatchPtr patch(raw);
    const git_diff_delta* delta = git_patch_get_delta(patch.get());
    // libgit2 leaves a side's path NULL where it could not read a name
    // (an added file has no old side); git_tree_entry_bypath(NULL) crashes.
    const char* path = delta->old_file.path ? delta->old_file.path : delta->new_file.path;
    if (path == nullptr) {
      report += "  a file of the diff has no name libgit2 could read\n";
      continue;
    }
    bool exists = false;
    auto lines = blob_lines(repo, tree, path, exists);
    if (delta->status == GIT_DELTA_ADDED) {
      bool new_exists = false;
      if (delta->new_file.path != nullptr) {
        blob_lines(repo, tree, delta->new_file.path, new_exists);
      }
      if (new_exists) {
        report += "  " + std::string(delta->new_file.path) +
                  ": the patch creates it, but it already exists in the tree\n";
      }
      continue;
    }
    if (!exists) {
      report +=
          "  " + std::string(path) + ": the patch changes it, but it does not exist in the tree\n";
      continue;
    }
    const size_t hunks = git_patch_num_hunks(patch.get());
    for (size_t h = 0; h < hunks; ++h) {
      const git_diff_hunk* hunk = nullptr;
      size_t hunk_lines = 0;
      if (git_patch_get_hunk(&hunk, &hunk_lines, patch.get(), h) < 0) {
        continue;
      }
      std::vector<std::string> preimage;
      for (size_t l = 0; l < hunk_lines; ++l) {
        const git_diff_line* line = nullptr;
        if (git_patch_get_line_in_hunk(&line, patch.get(), h, l) < 0) {
          continue;
        }
        if (line->origin == GIT_DIFF_LINE_CONTEXT || line->origin == GIT_DIFF_LINE_DELETION) {
          std::string text(line->content, line->content_len);
          while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
            text.pop_back();
          }
          preimage.push_back(text);
        }
      }
      const auto location = locate_hunk(lines, preimage, hunk->old_start);
      if (location.matches_in_place) {
        continue;
      }
      std::string header(hunk->header, hunk->header_len);
      while (!header.empty() && (header.back() == '\n' || header.back() == '\r')) {
        header.pop_back();
      }
      report += "  " + std::string(path) + ": hunk " + std::to_string(h + 1) + " '" + header +
                "': " + describe_location(location, hunk->old_start) + "\n";
    }
  }
  return report;
}

// A diff without mode lines leaves libgit2 both modes 0, and it writes the
// post-image as 100644: an executable lost its x bit. git am keeps the
// file's mode; so does this, on INDEX. A symlink changed that way is
// refused (diff_safety refuses symlinks a diff names; this one it did not
// name). False, with FAILURE set, for a refusal.
bool keep_modes(git_index* index, git_tree* tree, git_diff* diff, std::string& failure) {
  const size_t deltas = git_diff_num_deltas(diff);
  for (size_t d = 0; d < deltas; ++d) {
    const git_diff_delta* delta = git_diff_get_delta(diff, d);
    if (delta->new_file.mode != 0 || delta->old_file.path == nullptr ||
        delta->new_file.path == nullptr || delta->status == GIT_DELTA_DELETED ||
        delta->status == GIT_DELTA_ADDED) {
      continue;
    }
    git_tree_entry* raw = nullptr;
    if (git_tree_entry_bypath(&raw, tree, delta->old_file.path) < 0) {
      continue;
    }
    TreeEntryPtr entry(raw);
    const git_filemode_t mode = git_tree_entry_filemode(entry.get());
    if (mode == GIT_FILEMODE_LINK) {
      failure = std::string("refuses to change the symlink '") + delta->old_file.path +
                "' (the diff gives no mode; a symlink's target is not patched)";
      return false;
    }
    const git_index_entry* written = git_index_get_bypath(index, delta->new_file.path, 0);
    if (written == nullptr || written->mode == static_cast<uint32_t>(mode)) {
      continue;
    }
    git_index_entry copy = *written;
    copy.mode = static_cast<uint32_t>(mode);
    check(git_index_add(index, &copy),
          std::string("cannot keep the mode of ") + delta->new_file.path);
  }
  return true;
}

bool has_binary_delta(git_diff* diff) {
  const size_t deltas = git_diff_num_deltas(diff);
  for (size_t d = 0; d < deltas; ++d) {
    if (git_diff_get_delta(diff, d)->flags & GIT_DIFF_FLAG_BINARY) {
      return true;
    }
  }
  return false;
}

void throw_if_infrastructure(int rc, const std::string& what) {
  if (failure_source(rc) == FailureSource::k_infrastructure) {
    throw infra_error(what + ": " + last_error_message() + " (not the patch's fault)");
  }
}

SignaturePtr make_signature(const Person& person, const MailTime& time) {
  git_signature* raw = nullptr;
  check(git_signature_new(&raw, person.name.c_str(), person.email.c_str(), time.epoch,
                          time.offset_minutes),
        "cannot create signature for " + person.name + " <" + person.email + ">");
  return SignaturePtr(raw);
}

// A series whose base-commit trailer names another commit than the one it
// is applied onto: a warning each, not a failure. A series applied on top of
// another (its depends) may name the tree's base (b4's base-commit with
// prerequisite-patch-id lines) or the tip it goes onto; ONTO holds that tip
// for each series the apply reached.
std::vector<std::string> base_commit_warnings(const Store& store, const ApplyRequest& request,
                                              const std::vector<std::optional<git_oid>>& onto) {
  std::vector<std::string> warnings;
  for (std::size_t s = 0; s < request.chain.size(); ++s) {
    const Series* series = request.chain[s];
    if (!series->base_commit || *series->base_commit == to_hex(request.base) ||
        (s < onto.size() && onto[s] && *series->base_commit == to_hex(*onto[s]))) {
      continue;
    }
    git_oid claimed{};
    const bool known =
        git_oid_fromstrn(&claimed, series->base_commit->data(), series->base_commit->size()) == 0 &&
        store.has_object(claimed);
    warnings.push_back("base-commit mismatch: " + series->name + " says base-commit " +
                       *series->base_commit +
                       (known ? " (known here)" : " (not in this repository)") +
                       ", applying onto " + to_hex(request.base) + " (" + request.base_label + ")");
  }
  return warnings;
}

// Every diff as libgit2 reads it, before anything is written: the text
// checks at intake can be outflanked by spellings only libgit2 accepts.
void check_every_diff(const ApplyRequest& request) {
  for (size_t s = 0; s < request.chain.size(); ++s) {
    const Series& series = *request.chain[s];
    for (size_t i = 0; i < series.patches.size(); ++i) {
      const std::string& text = series.patches[i].diff;
      git_diff* raw_diff = nullptr;
      if (git_diff_from_buffer(&raw_diff, text.data(), text.size()) == 0) {
        DiffPtr diff(raw_diff);
        check_parsed_diff(diff.get(), series.label(i));
      }  // else: reported as that patch's failure in apply_chain
    }
  }
}

// Commits INDEX's tree onto PARENT as MAIL's commit (its author, date and
// message; kseries the committer).
git_oid commit_patch(git_repository* repo, git_index* index, const git_oid& parent,
                     const PatchMail& mail, const std::string& label) {
  git_oid tree_id;
  check(git_index_write_tree_to(&tree_id, index, repo), "cannot write the tree of " + label);
  git_tree* raw_tree = nullptr;
  check(git_tree_lookup(&raw_tree, repo, &tree_id), "cannot read tree");
  TreePtr tree(raw_tree);
  git_commit* raw_parent = nullptr;
  check(git_commit_lookup(&raw_parent, repo, &parent), "cannot read parent commit");
  CommitPtr parent_commit(raw_parent);
  const auto author = make_signature(mail.author, mail.date);
  const auto committer = make_signature({k_committer_name, k_committer_email}, mail.date);
  const git_commit* parents[] = {parent_commit.get()};
  const std::string message = mail.commit_message();
  git_oid commit;
  check(git_commit_create(&commit, repo, nullptr, author.get(), committer.get(), nullptr,
                          message.c_str(), tree.get(), 1, parents),
        "cannot commit " + label);
  return commit;
}

// MAIL's diff applied onto PARENT: OUTCOME applied with its commit, or failed
// with why (the series' fault); an infrastructure error throws.
void apply_patch(Store& store, const PatchMail& mail, const git_oid& parent,
                 PatchOutcome& outcome) {
  git_repository* repo = store.repo();
  git_diff* raw_diff = nullptr;
  if (const int rc = git_diff_from_buffer(&raw_diff, mail.diff.data(), mail.diff.size()); rc < 0) {
    throw_if_infrastructure(rc, "cannot parse the diff of " + outcome.label);
    outcome.status = PatchStatus::k_failed;
    outcome.failure = "the diff does not parse (" + last_error_message() + "), starting at " +
                      mail.file.string() + ":" + std::to_string(mail.diff_line);
    return;
  }
  DiffPtr diff(raw_diff);
  TreePtr parent_tree = store.commit_tree(parent);
  const std::string conflicts = directory_file_conflicts(parent_tree.get(), diff.get());
  if (!conflicts.empty()) {
    outcome.status = PatchStatus::k_failed;
    outcome.failure = "the patch's paths collide with the tree\n" + conflicts;
    return;
  }
  git_index* raw_index = nullptr;
  git_apply_options options = GIT_APPLY_OPTIONS_INIT;
  if (const int rc = git_apply_to_tree(&raw_index, repo, parent_tree.get(), diff.get(), &options);
      rc < 0) {
    // A hunk that does not fit is the series' failure; a disk or object
    // store that refuses the post-image is not (exit 2, no verdict).
    // A zlib error with a binary hunk in the diff is the hunk's own
    // deflated data (libgit2 inflates it only here): the patch's fault.
    const git_error* error = git_error_last();
    const bool bad_binary =
        error != nullptr && error->klass == GIT_ERROR_ZLIB && has_binary_delta(diff.get());
    if (!bad_binary) {
      throw_if_infrastructure(rc, "cannot apply " + outcome.label);
    }
    const std::string message = last_error_message();
    outcome.status = PatchStatus::k_failed;
    outcome.failure = "libgit2: " + message + "\n" + diagnose(repo, parent_tree.get(), diff.get());
    return;
  }
  IndexPtr index(raw_index);
  if (!keep_modes(index.get(), parent_tree.get(), diff.get(), outcome.failure)) {
    outcome.status = PatchStatus::k_failed;
    return;
  }
  outcome.commit = commit_patch(repo, index.get(), parent, mail, outcome.label);
  outcome.status = PatchStatus::k_applied;
}

}  // namespace

ApplyResult apply_chain(Store& store, const ApplyRequest& request,
                        const std::function<void(const PatchOutcome&)>& on_patch) {
  ApplyResult result;
  git_repository* repo = store.repo();
  if (request.chain.empty()) {
    throw infra_error("internal: nothing to apply");
  }
  const auto drifts = release_drifts(store, request.base, request.chain);
  check_every_diff(request);
  std::vector<std::optional<git_oid>> onto(request.chain.size());

  // One pack for the whole chain, not a file per blob, tree and commit.
  Store::BufferedWrites writes(store);
  git_oid parent = request.base;
  bool failed = false;
  for (size_t s = 0; s < request.chain.size(); ++s) {
    const Series& series = *request.chain[s];
    if (!failed) {
      onto[s] = parent;
    }
    const bool last = s + 1 == request.chain.size();
    const size_t wanted = last && request.upto ? std::min(*request.upto, series.patches.size())
                                               : series.patches.size();
    for (size_t i = 0; i < wanted; ++i) {
      const PatchMail& mail = series.patches[i];
      PatchOutcome outcome;
      outcome.series_name = series.name;
      outcome.index = i;
      outcome.total = series.patches.size();
      outcome.label = series.label(i);
      outcome.subject = mail.subject.title;
      if (failed) {
        result.outcomes.push_back(outcome);
        continue;
      }
      // In-process work, no child to kill: SIGINT/SIGTERM stop it here.
      throw_if_interrupted("before applying " + outcome.label);
      const auto started = Clock::now();

      apply_patch(store, mail, parent, outcome);
      if (outcome.status == PatchStatus::k_applied) {
        parent = outcome.commit;
        result.tip = parent;
      }
      outcome.seconds = seconds_since(started);
      if (outcome.status == PatchStatus::k_failed) {
        failed = true;
        // What the user can do about it starts with the base.
        outcome.failure +=
            (outcome.failure.empty() || outcome.failure.back() == '\n' ? "" : "\n") +
            describe_base(base_facts(repo, series.base_commit, request.base, request.base_label));
      }
      try {
        writes.flush_if_large();
      } catch (const Error& e) {
        throw infra_error("cannot store the objects of " + outcome.label + ": " + e.what() +
                          " (not the patch's fault)");
      }
      if (on_patch) {
        on_patch(outcome);
      }
      result.outcomes.push_back(std::move(outcome));
    }
  }
  try {
    writes.finish();
  } catch (const Error& e) {
    throw infra_error("cannot store the objects of " + request.chain.back()->name + ": " +
                      e.what() + " (not the patch's fault)");
  }
  result.warnings = base_commit_warnings(store, request, onto);
  for (const auto& drift : drifts) {
    result.warnings.push_back(drift.text());
  }
  result.complete = !failed;
  return result;
}

}  // namespace kseries::git
