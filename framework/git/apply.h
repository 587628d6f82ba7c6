#pragma once
// Applying a series with libgit2, entirely in memory: apply the diff to the
// parent's tree, write the tree, commit with the patch's author, date and
// message. Nothing is checked out and no ref moves here: the caller creates
// the branch only once it knows the outcome.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "git/store.h"
#include "series/series.h"

namespace kseries::git {

enum class OnFailure { k_stop, k_keep_applied };

struct ApplyRequest {
  git_oid base{};
  std::string base_label;            // shown in messages
  std::vector<const Series*> chain;  // prerequisites first, the series last
  std::optional<std::size_t> upto;   // apply only the first K patches of the last series
};

enum class PatchStatus { k_applied, k_failed, k_not_attempted };

struct PatchOutcome {
  std::string series_name;
  std::size_t index = 0;  // 0-based within its series
  std::size_t total = 0;
  std::string label;  // Series::label()
  std::string subject;
  PatchStatus status = PatchStatus::k_not_attempted;
  git_oid commit{};
  std::string failure;  // multi-line detail when failed
  double seconds = 0;
};

struct ApplyResult {
  std::vector<PatchOutcome> outcomes;  // every patch of every series in the chain
  std::optional<git_oid> tip;          // the last commit that applied
  bool complete = false;               // every requested patch applied
  std::vector<std::string> warnings;   // base-commit mismatches
};

// Applies the chain; stops at the first failing patch (the rest are
// k_not_attempted). Throws Error(k_usage), before applying anything, for a
// diff that git/diff_check.h refuses; otherwise Error only for
// infrastructure failures.
ApplyResult apply_chain(Store& store, const ApplyRequest& request,
                        const std::function<void(const PatchOutcome&)>& on_patch = {});

// The committer of every applied patch: fixed, so that the same series on
// the same base gives the same commit ids (cache keys) on every machine.
inline constexpr const char* k_committer_name = "kseries";
inline constexpr const char* k_committer_email = "kseries@invalid";

}  // namespace kseries::git
