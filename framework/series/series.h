#pragma once
// A patch series as kseries takes it in: a directory of `git format-patch`
// files listed in a `series` file, or one mbox. Validated as a maintainer
// would: numbering, revision, diffs, base-commit.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "series/patch_mail.h"

namespace kseries {

struct SeriesLimits {
  std::size_t max_patch_bytes = 8u << 20;
};

struct Series {
  std::filesystem::path source;  // the directory or the mbox file
  std::string name;              // "zone-device-memmap/v6", or the mbox's stem
  std::string title;             // cover letter title, else the first patch's
  int revision = 1;
  std::optional<PatchMail> cover;
  std::vector<PatchMail> patches;  // in apply order
  std::optional<std::string> base_commit;
  // b4's change-id (the cover letter's, else a patch's): the series'
  // identity across revisions (series/revision_identity.h).
  std::optional<std::string> change_id;
  std::vector<std::string> prerequisite_patch_ids;
  // The Message-ID the revision was posted under (its cover letter's, else
  // its first patch's) and the message-ids its cover letter names: the one
  // it replies to, its References, the lore links in its text. A revision
  // names its predecessor so (series/revision_identity.h).
  std::string message_id;
  std::vector<std::string> links;
  // Series to apply first (from the directory's `depends` file), absolute.
  std::vector<std::filesystem::path> depends;
  // Notes for the user (skipped replies, a missing series file...).
  std::vector<std::string> notes;

  // "patch 3/8 'mm: add ...'" for messages.
  std::string label(std::size_t index) const;
};

// Throws Error(k_usage) naming the file and line for every malformed input:
// no patches, a gap or duplicate in m/n, mixed revisions, a message with no
// diff, an unsafe diff, disagreeing base-commit trailers.
Series load_series(const std::filesystem::path& source, const SeriesLimits& limits = {});

}  // namespace kseries
