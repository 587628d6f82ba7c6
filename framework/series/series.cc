#include "series/series.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "series/diff_safety.h"
#include "series/series_file.h"
#include "sys/files.h"

namespace kseries {
namespace {

namespace fs = std::filesystem;

bool is_reply(const PatchMail& mail) {
  const std::string lower = to_lower(trim(mail.raw_subject).substr(0, 4));
  return starts_with(lower, "re:") || starts_with(lower, "aw:");
}

std::vector<fs::path> read_depends(const fs::path& dir) {
  std::vector<fs::path> depends;
  const fs::path depends_file = dir / "depends";
  if (!fs::exists(depends_file)) {
    return depends;
  }
  for (const auto& line : content_lines(read_file(depends_file))) {
    const fs::path target = fs::weakly_canonical(dir / line.text);
    if (!fs::exists(target)) {
      throw usage_error(depends_file.string() + ":" + std::to_string(line.number) +
                        ": prerequisite series '" + line.text + "' does not exist (" +
                        target.string() + ")");
    }
    depends.push_back(target);
  }
  return depends;
}

std::string series_name(const fs::path& source) {
  if (fs::is_directory(source)) {
    const auto dir = fs::weakly_canonical(source);
    const std::string leaf = dir.filename().string();
    const bool revision_dir = leaf.size() > 1 && (leaf[0] == 'v' || leaf[0] == 'V') &&
                              std::all_of(leaf.begin() + 1, leaf.end(), ::isdigit);
    return revision_dir ? dir.parent_path().filename().string() + "/" + leaf : leaf;
  }
  return source.stem().string();
}

// Whether PATCH is another revision's, referenced by a directory series'
// `series` file (OWN_DIR: that directory; empty for an mbox).
bool referenced(const PatchMail& patch, const fs::path& own_dir) {
  return !own_dir.empty() && fs::weakly_canonical(patch.file).parent_path() != own_dir;
}

// A derived series may put patches of its own on top of another revision's
// (known-bad/sanitizer-ignore: v10's 1/8..8/8, then its own 9/9): the
// referenced patches keep their revision's total, which must then be smaller
// than the series, and sit at their own positions; the series' own patches
// carry the series' total.
void check_numbering(const std::vector<PatchMail>& patches, const fs::path& own_dir) {
  const bool any_numbered = std::any_of(patches.begin(), patches.end(),
                                        [](const PatchMail& p) { return p.subject.numbered; });
  if (!any_numbered) {
    return;
  }
  const int total = referenced(patches.front(), own_dir) ? static_cast<int>(patches.size())
                                                         : patches.front().subject.total;
  std::map<int, const PatchMail*> seen;
  for (const auto& patch : patches) {
    if (!patch.subject.numbered) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject +
                        "' has no m/n number while the rest of the series does");
    }
    const bool extended = referenced(patch, own_dir) && patch.subject.total < total &&
                          patch.subject.index == static_cast<int>(seen.size()) + 1;
    if (patch.subject.total != total && !extended) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject + "' says the series has " +
                        std::to_string(patch.subject.total) + " patches; " +
                        patches.front().where() + " says " + std::to_string(total) +
                        (referenced(patch, own_dir) ? ""
                                                    : " (only another revision's patches, "
                                                      "referenced in order before the "
                                                      "series' own, may say fewer)"));
    }
    if (patch.subject.index < 1 || patch.subject.index > total) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject + "' is numbered " +
                        std::to_string(patch.subject.index) + "/" + std::to_string(total));
    }
    if (auto it = seen.find(patch.subject.index); it != seen.end()) {
      throw usage_error(patch.where() + ": duplicate patch " + std::to_string(patch.subject.index) +
                        "/" + std::to_string(total) + " (also at " + it->second->where() + ")");
    }
    seen[patch.subject.index] = &patch;
  }
  for (int index = 1; index <= total; ++index) {
    if (!seen.count(index)) {
      throw usage_error(patches.front().file.string() + ": patch " + std::to_string(index) + "/" +
                        std::to_string(total) + " is missing from the series (gap after " +
                        (index > 1 && seen.count(index - 1) ? seen[index - 1]->where()
                                                            : std::string("the start")) +
                        ")");
    }
  }
}

}  // namespace

std::string Series::label(std::size_t index) const {
  const auto& patch = patches.at(index);
  return "patch " + std::to_string(index + 1) + "/" + std::to_string(patches.size()) + " '" +
         patch.subject.title + "' (" + patch.where() + ")";
}

Series load_series(const fs::path& source, const SeriesLimits& limits) {
  if (!fs::exists(source)) {
    throw usage_error("series not found: " + source.string());
  }
  Series series;
  series.source = fs::weakly_canonical(source);
  series.name = series_name(source);

  std::vector<ListedPatch> files;
  if (fs::is_directory(source)) {
    files = list_series_directory(source, series.notes);
    series.depends = read_depends(source);
  } else {
    files.push_back({source, source.string(), false});
  }

  std::vector<PatchMail> mails;
  for (const auto& listed : files) {
    // A pipe too: `--series <(b4 am -o - ...)`; never a device (/dev/zero).
    const std::string text = read_file(listed.file, k_max_input_bytes, InputKind::k_file_or_pipe);
    for (const auto& message : split_mbox(text, listed.file)) {
      mails.push_back(parse_patch_mail(message, listed.file));
    }
  }

  size_t replies = 0;
  for (auto& mail : mails) {
    if (is_reply(mail)) {
      ++replies;
      continue;
    }
    series.notes.insert(series.notes.end(), mail.notes.begin(), mail.notes.end());
    if (mail.subject.is_cover()) {
      if (series.cover) {
        throw usage_error(mail.where() + ": a second cover letter (first at " +
                          series.cover->where() + ")");
      }
      series.cover = std::move(mail);
      continue;
    }
    if (mail.diff.empty()) {
      throw usage_error(mail.where() + ": message '" + mail.raw_subject +
                        "' has no diff (no 'diff --git' line)");
    }
    series.patches.push_back(std::move(mail));
  }
  if (replies > 0) {
    series.notes.push_back("skipped " + std::to_string(replies) + " reply message(s) (Re:)");
  }
  if (series.patches.empty()) {
    throw usage_error(source.string() + ": the series has no patches" +
                      (series.cover ? " (only a cover letter)" : ""));
  }

  check_numbering(series.patches, fs::is_directory(source) ? fs::path(series.source) : fs::path());
  const bool from_directory = fs::is_directory(source);
  if (series.patches.front().subject.numbered) {
    // The numbering is authoritative; a series file must agree with it.
    for (size_t i = 0; from_directory && i < series.patches.size(); ++i) {
      if (series.patches[i].subject.index != static_cast<int>(i + 1)) {
        throw usage_error((source / "series").string() + ": lists " +
                          series.patches[i].file.filename().string() + " in position " +
                          std::to_string(i + 1) + " but its subject says " +
                          std::to_string(series.patches[i].subject.index) + "/" +
                          std::to_string(series.patches[i].subject.total));
      }
    }
    std::stable_sort(
        series.patches.begin(), series.patches.end(),
        [](const PatchMail& a, const PatchMail& b) { return a.subject.index < b.subject.index; });
  }

  series.revision =
      series.cover ? series.cover->subject.revision : series.patches.front().subject.revision;
  const PatchMail& reference = series.cover ? *series.cover : series.patches.front();
  for (const auto& patch : series.patches) {
    if (patch.subject.revision != series.revision) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject + "' is revision v" +
                        std::to_string(patch.subject.revision) + " but " + reference.where() +
                        " is v" + std::to_string(series.revision) + " (mixed revisions)");
    }
  }
  series.title = series.cover ? series.cover->subject.title : series.patches.front().subject.title;

  for (size_t i = 0; i < series.patches.size(); ++i) {
    const auto& patch = series.patches[i];
    check_diff_safety(patch.diff, series.label(i), limits.max_patch_bytes);
    if (patch.base_commit) {
      if (series.base_commit && *series.base_commit != *patch.base_commit) {
        throw usage_error(patch.where() + ": base-commit " + *patch.base_commit +
                          " disagrees with " + *series.base_commit + " given earlier");
      }
      series.base_commit = patch.base_commit;
    }
    if (series.prerequisite_patch_ids.empty()) {
      series.prerequisite_patch_ids = patch.prerequisite_patch_ids;
    }
  }
  if (!series.base_commit && series.cover && series.cover->base_commit) {
    series.base_commit = series.cover->base_commit;
  }
  series.change_id = series.cover ? series.cover->change_id : std::nullopt;
  for (const auto& patch : series.patches) {
    series.change_id = series.change_id ? series.change_id : patch.change_id;
  }
  return series;
}

}  // namespace kseries
