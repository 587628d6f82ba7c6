#include "watch/intake.h"

#include <gtest/gtest.h>

#include <map>

namespace kseries::watch {
namespace {

using Verdict = IntakeDecision::Verdict;

ArchiveMessage message(const std::string& id, const std::string& subject,
                       const std::string& in_reply_to = "",
                       std::vector<std::string> references = {}) {
  ArchiveMessage m;
  m.message_id = id;
  m.subject = subject;
  m.in_reply_to = in_reply_to;
  m.references = std::move(references);
  if (!in_reply_to.empty() && m.references.empty()) {
    m.references.push_back(in_reply_to);
  }
  return m;
}

struct Known {
  std::map<std::string, KnownRevision> revisions;
  KnownLookup lookup() const {
    return [this](const std::string& id) -> std::optional<KnownRevision> {
      const auto it = revisions.find(id);
      return it == revisions.end() ? std::nullopt : std::optional<KnownRevision>(it->second);
    };
  }
};

TEST(Intake, CoverLettersAndLonePatchesStartRevisions) {
  const Known known;
  auto d = classify_message(message("c@x", "[PATCH v3 0/5] mm: a series"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_revision);
  EXPECT_EQ(d.kind, StartKind::k_cover);
  EXPECT_EQ(d.subject.revision, 3);
  d = classify_message(message("p@x", "[ndctl PATCH] test: fix"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_revision);
  EXPECT_EQ(d.kind, StartKind::k_single);
}

TEST(Intake, RepliesLaterPatchesAndOtherMailAreNotRevisions) {
  const Known known;
  for (const char* subject :
       {"Re: [PATCH v3 0/5] mm: a series", "RE: [PATCH] x", "Aw: [PATCH 0/2] x",
        "[PATCH v3 2/5] mm: two", "dax: a question without a patch", "[GIT PULL] nvdimm for 7.1"}) {
    const auto d = classify_message(message("m@x", subject), known.lookup());
    EXPECT_EQ(d.verdict, Verdict::k_skip) << subject;
    EXPECT_FALSE(d.category.empty()) << subject;
  }
  EXPECT_EQ(classify_message(message("", "[PATCH 0/2] x"), known.lookup()).verdict,
            Verdict::k_skip);
}

// Issue 50: a series posted without a cover letter was never gated.
TEST(Intake, TheFirstPatchOfASeriesWithoutCoverLetterStartsIt) {
  Known known;
  auto d = classify_message(message("p1@x", "[PATCH 1/3] mm: one"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_revision);
  EXPECT_EQ(d.kind, StartKind::k_first_patch);
  EXPECT_EQ(d.subject.total, 3);
  // Under its own revision's cover letter it is not.
  known.revisions["c@x"] = {StartKind::k_cover, 2, 3};
  d = classify_message(message("p1v2@x", "[PATCH v2 1/3] mm: one", "c@x"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_skip);
  // In reply to the previous revision's cover letter it starts v3.
  d = classify_message(message("p1v3@x", "[PATCH v3 1/3] mm: one", "c@x"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_revision);
  EXPECT_EQ(d.kind, StartKind::k_first_patch);
}

// Issue 50: "[PATCH] fixup ..." in a series' thread without "Re:" was taken
// as a new revision (v1), and the author was told the series' v1 passed.
TEST(Intake, APatchInASeriesThreadWithoutANewerRevisionIsNotTaken) {
  Known known;
  known.revisions["cover@x"] = {StartKind::k_cover, 2, 5};
  auto d = classify_message(message("fix@x", "[PATCH] fixup for 2/5", "p2@x", {"cover@x", "p2@x"}),
                            known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_not_taken);
  EXPECT_NE(d.why.find("cover@x"), std::string::npos) << d.why;
  // A newer revision of a lone patch in reply to the older one is one.
  known.revisions["lone@x"] = {StartKind::k_single, 1, 1};
  d = classify_message(message("lone2@x", "[PATCH v2] x: fix", "lone@x"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_revision);
  // A patch proposed in a discussion the watch never took as a revision is one.
  d = classify_message(message("idea@x", "[PATCH] x: fix it", "bug-report@x"), known.lookup());
  EXPECT_EQ(d.verdict, Verdict::k_revision);
}

}  // namespace
}  // namespace kseries::watch
