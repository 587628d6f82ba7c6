#pragma once
// Which series a revision belongs to, and which revision it is: b4's
// `change-id:` trailer first (it survives a reworded cover letter), then the
// `<series>/vN` directory a revision lives in, then the cover letter's title;
// with the `vN` tag of its subjects. The gate's revision comparison, `watch`
// and every report name a revision this way.

#include <optional>
#include <string>
#include <string_view>

#include "series/series.h"

namespace kseries {

enum class IdentitySource { k_change_id, k_directory, k_title };

struct RevisionIdentity {
  IdentitySource source = IdentitySource::k_title;
  std::string key;  // the change-id, the `<series>` directory, or the title
  int revision = 1;
  // "change-id: 20261202-toy-abc", "dir: zone-device-memmap", "title: mm: ..."
  std::string family() const;
  // "change-id 20261202-toy-abc v2", "title 'mm: ...' v2"
  std::string label() const;
};

// A change-id as b4 writes it ("20221103-foo-bar-abc123def456"): 1 to 128
// characters of [A-Za-z0-9._-], starting with a letter or digit. Anything
// else read from a mail is ignored, not trusted.
bool valid_change_id(std::string_view text);

RevisionIdentity revision_identity(const Series& series);

}  // namespace kseries
