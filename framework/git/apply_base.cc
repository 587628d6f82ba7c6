#include "git/apply_base.h"

#include <algorithm>

#include "core/text.h"
#include "git/libgit2.h"

namespace kseries::git {

namespace {

bool is_hex_id(const std::string& text) {
  return text.size() >= 4 && text.size() <= GIT_OID_HEXSZ &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

// The commit a (possibly abbreviated) id names here, if this repository has it.
std::optional<git_oid> commit_here(git_repository* repo, const std::string& id) {
  git_oid oid{};
  if (git_oid_fromstrn(&oid, id.data(), id.size()) < 0) {
    return std::nullopt;
  }
  git_commit* raw = nullptr;
  if (git_commit_lookup_prefix(&raw, repo, &oid, id.size()) < 0) {
    return std::nullopt;
  }
  const git_oid found = *git_commit_id(raw);
  git_commit_free(raw);
  return found;
}

}  // namespace

std::optional<std::string> nearest_tag(git_repository* repo, const git_oid& commit) {
  git_object* object = nullptr;
  if (git_object_lookup(&object, repo, &commit, GIT_OBJECT_COMMIT) < 0) {
    return std::nullopt;
  }
  git_describe_options options = GIT_DESCRIBE_OPTIONS_INIT;
  options.describe_strategy = GIT_DESCRIBE_TAGS;
  options.max_candidates_tags = 10;
  git_describe_result* result = nullptr;
  std::optional<std::string> text;
  if (git_describe_commit(&result, object, &options) == 0) {
    git_describe_format_options format = GIT_DESCRIBE_FORMAT_OPTIONS_INIT;
    git_buf buf = GIT_BUF_INIT;
    if (git_describe_format(&buf, result, &format) == 0) {
      text = std::string(buf.ptr, buf.size);
    }
    git_buf_dispose(&buf);
    git_describe_result_free(result);
  }
  git_object_free(object);
  return text;
}

BaseFacts base_facts(git_repository* repo, const std::optional<std::string>& named,
                     const git_oid& applied, const std::string& applied_label) {
  BaseFacts facts;
  facts.named = named;
  facts.applied = to_hex(applied);
  facts.applied_label = applied_label;
  facts.applied_tag = nearest_tag(repo, applied);
  if (named && is_hex_id(*named)) {
    facts.named_valid = true;
    if (const auto here = commit_here(repo, *named)) {
      facts.named_here = true;
      facts.named_tag = nearest_tag(repo, *here);
    }
  }
  return facts;
}

std::string describe_base(const BaseFacts& facts) {
  std::string out;
  const std::string applied =
      facts.applied.substr(0, 12) +
      (facts.applied_label.empty() ? "" : " (" + facts.applied_label + ")") +
      (facts.applied_tag ? ", nearest tag " + *facts.applied_tag
                         : ", no tag reachable from it in this repository");
  if (!facts.named) {
    out +=
        "  base: the series names no base-commit (git format-patch --base, b4 add it); "
        "applied onto " +
        applied + "\n";
    return out;
  }
  const std::string named = facts.named->substr(0, 64);
  if (!facts.named_valid) {
    out += "  base: the series names base-commit '" + named +
           "', which is not a commit id; applied onto " + applied + "\n";
  } else if (facts.applied.rfind(to_lower(*facts.named), 0) == 0) {
    out += "  base: the series names base-commit " + named + ", the very base it was applied onto" +
           (facts.applied_tag ? " (nearest tag " + *facts.applied_tag + ")" : "") +
           ": the series does not apply to its own base\n";
  } else if (facts.named_here) {
    out += "  base: the series names base-commit " + named + ", which this repository has" +
           (facts.named_tag ? " (nearest tag " + *facts.named_tag + ")" : "") + "; applied onto " +
           applied + ": retry with --base " + named + "\n";
  } else {
    out += "  base: the series names base-commit " + named +
           ", which this repository does not have (fetch the tree it was written against, "
           "or choose --base); applied onto " +
           applied + "\n";
  }
  return out;
}

}  // namespace kseries::git
