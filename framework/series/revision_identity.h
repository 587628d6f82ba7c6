#pragma once
// Which series a revision belongs to, and which revision it is: b4's
// `change-id:` trailer first (it survives a reworded cover letter), then the
// `<series>/vN` directory a revision lives in, then the cover letter's title;
// with the `vN` tag of its subjects. The gate's revision comparison, `watch`
// and every report name a revision this way.
//
// A revision retitled without a change-id would start a family of its own;
// when its cover letter names an earlier revision's message (In-Reply-To,
// References, a lore link in its text), RevisionLinks puts it in that
// revision's family instead.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "series/series.h"

namespace kseries {

enum class IdentitySource { k_change_id, k_directory, k_title };

struct RevisionIdentity {
  IdentitySource source = IdentitySource::k_title;
  std::string key;  // the change-id, the `<series>` directory, or the title
  int revision = 1;
  std::string message_id;          // Series::message_id
  std::vector<std::string> links;  // Series::links: the messages it names
  // The message-id of the earlier revision whose family it took ("" none).
  std::string linked_to;
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

// Revisions known so far, by the message-id each was posted under.
class RevisionLinks {
 public:
  // Remembers `identity` (resolved) under its message-id.
  void add(const RevisionIdentity& identity);
  // `identity` in the family of the first known revision it links, unless
  // it has a change-id of its own (b4's change-id first).
  RevisionIdentity resolve(RevisionIdentity identity) const;

 private:
  std::map<std::string, RevisionIdentity> m_by_message_id;
};

// The identities of revisions given together (a gate's --series), each
// resolved against the others: older revisions first, so v7 that links v6
// takes v6's family, in the order given.
std::vector<RevisionIdentity> revision_identities(const std::vector<const Series*>& series);

}  // namespace kseries
