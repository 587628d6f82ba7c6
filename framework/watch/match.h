#pragma once
// `kseries watch --match EXPR`: which revisions the watch gates. Several
// --match: any one of them. EXPR is
//   subject:TEXT      the cover letter's (or single patch's) subject contains
//                     TEXT (case-insensitive); a bare TEXT means the same
//   file:PATH         a patch touches PATH, or a file below it ("mm/")
//   change-id:ID      b4's change-id is ID (a list: ID,ID,...)

#include <string>
#include <vector>

#include "series/series.h"

namespace kseries::watch {

enum class MatchKind { k_subject, k_file, k_change_id };

struct Match {
  MatchKind kind = MatchKind::k_subject;
  std::vector<std::string> values;
  std::string text;  // as given
};

// Throws Error(k_usage) for an empty value or an unknown KIND:.
Match parse_match(const std::string& text);

// Whether TITLE (cheap, before fetching) may match: false only when every
// match is a subject match and none is in TITLE.
bool title_may_match(const std::vector<Match>& matches, const std::string& title);

// Whether the fetched series matches (no matches: every series does); WHY
// says which match did, or why none did.
bool series_matches(const std::vector<Match>& matches, const Series& series, std::string& why);

// The files the patches touch ("diff --git a/X b/Y": both names).
std::vector<std::string> touched_files(const Series& series);

}  // namespace kseries::watch
