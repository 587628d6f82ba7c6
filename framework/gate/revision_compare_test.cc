#include "gate/revision_compare.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "git/libgit2.h"
#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

namespace fs = std::filesystem;
using testing::PatchText;
using testing::put_file;
using testing::TempDir;

std::string diff_of(const std::string& file, int line, const std::string& old_text,
                    const std::string& new_text) {
  const std::string at = std::to_string(line);
  return "diff --git a/" + file + " b/" + file + "\nindex 1111111..2222222 100644\n--- a/" + file +
         "\n+++ b/" + file + "\n@@ -" + at + ",3 +" + at + ",3 @@\n ctx\n-" + old_text + "\n+" +
         new_text + "\n ctx\n";
}

struct ToyPatch {
  std::string title;
  std::string diff;
};

// <tmp>/toy/vN: a numbered series of `patches`.
fs::path write_revision(const fs::path& root, int revision, const std::vector<ToyPatch>& patches) {
  const fs::path dir = root / "toy" / ("v" + std::to_string(revision));
  std::string listing;
  for (std::size_t i = 0; i < patches.size(); ++i) {
    PatchText text;
    text.subject = "[PATCH v" + std::to_string(revision) + " " + std::to_string(i + 1) + "/" +
                   std::to_string(patches.size()) + "] " + patches[i].title;
    text.diff = patches[i].diff;
    const std::string name = std::to_string(i + 1) + ".patch";
    put_file(dir / name, text.render());
    listing += name + "\n";
  }
  put_file(dir / "series", listing);
  return dir;
}

results::CellResult cell(const std::string& series, const std::string& name,
                         results::Outcome status) {
  return {series, name, status, "", "", 0, {}};
}

TEST(PairPatchesTest, ByPatchIdThenSubjectThenRewordedSubject) {
  const std::vector<RevisionPatch> from = {{"a: one", "id1"},
                                           {"a: two", "id2"},
                                           {"a: introduce foo_nt() helpers", "id3"},
                                           {"a: gone", "id4"}};
  const std::vector<RevisionPatch> to = {{"a: one", "id1"},
                                         {"a: introduce foo_nontemporal() helpers", "id5"},
                                         {"a: two", "id6"},
                                         {"a: fresh", "id7"}};
  const auto pairs = pair_patches(from, to);
  ASSERT_EQ(pairs.size(), 5u);
  EXPECT_EQ(pairs[0].change, PatchChange::k_unchanged);
  EXPECT_EQ(pairs[0].from, 1u);
  EXPECT_EQ(pairs[0].to, 1u);
  // The reworded helper pairs from 3 with to 2; "a: two" pairs by subject.
  EXPECT_EQ(pairs[1].change, PatchChange::k_changed);
  EXPECT_EQ(pairs[1].from, 3u);
  EXPECT_EQ(pairs[1].to, 2u);
  EXPECT_EQ(pairs[1].from_title, "a: introduce foo_nt() helpers");
  EXPECT_EQ(pairs[2].change, PatchChange::k_changed);
  EXPECT_EQ(pairs[2].from, 2u);
  EXPECT_EQ(pairs[2].from_title, "");
  EXPECT_EQ(pairs[3].change, PatchChange::k_new);
  EXPECT_FALSE(pairs[3].from);
  EXPECT_EQ(pairs[3].title, "a: fresh");
  EXPECT_EQ(pairs[4].change, PatchChange::k_dropped);
  EXPECT_EQ(pairs[4].from, 4u);
  EXPECT_FALSE(pairs[4].to);
}

TEST(PairPatchesTest, AMovedPatchIsUnchangedAndDroppedOnesStayInPlace) {
  const std::vector<RevisionPatch> from = {{"x: a", "1"}, {"x: b", "2"}, {"x: c", "3"}};
  const std::vector<RevisionPatch> to = {{"x: a", "1"}, {"x: c", "3"}};
  const auto pairs = pair_patches(from, to);
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[1].change, PatchChange::k_dropped);
  EXPECT_EQ(pairs[1].from, 2u);
  EXPECT_EQ(pairs[2].change, PatchChange::k_unchanged);
  EXPECT_EQ(pairs[2].from, 3u);
  EXPECT_EQ(pairs[2].to, 2u);
}

TEST(PairPatchesTest, UnrelatedSubjectsDoNotPair) {
  const auto pairs = pair_patches({{"mm: add a set_page_section_from_pfn() helper", "1"}},
                                  {{"mm: add a template-based fast path", "2"}});
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].change, PatchChange::k_new);
  EXPECT_EQ(pairs[1].change, PatchChange::k_dropped);
}

TEST(PairPatchesTest, AnUnparsedPatchIsNeverUnchanged) {
  const auto pairs = pair_patches({{"x: a", ""}}, {{"x: a", ""}});
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].change, PatchChange::k_changed);
}

// Two revisions of a toy series on disk, through load_series and libgit2's
// patch-ids: v2 moves patch 1 by ten lines (same patch-id), changes 2,
// drops 3 and adds one.
TEST(GatedRevisionJsonTest, RoundTripsAndRefusesAMalformedList) {
  // A sharded gate hands its revisions to the merge through shard.json.
  const std::vector<GatedRevision> revisions{
      {"demo/v1", "demo", 1, {{"mm: a", "0123abcd"}, {"mm: b", ""}}}, {"demo/v2", "demo", 2, {}}};
  const auto back = gated_revisions_from_json(gated_revisions_json(revisions));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].series, "demo/v1");
  EXPECT_EQ(back[0].family, "demo");
  EXPECT_EQ(back[1].revision, 2);
  ASSERT_EQ(back[0].patches.size(), 2u);
  EXPECT_EQ(back[0].patches[0].title, "mm: a");
  EXPECT_EQ(back[0].patches[0].patch_id, "0123abcd");
  EXPECT_EQ(back[0].patches[1].patch_id, "");
  EXPECT_THROW(gated_revisions_from_json(nlohmann::json::parse(R"([{"series": "x"}])")), Error);
}

TEST(CompareRevisionsTest, ToySeriesV1ToV2) {
  git::Session session;
  TempDir tmp;
  const auto v1 = write_revision(tmp.path(), 1,
                                 {{"toy: one", diff_of("a.txt", 1, "one", "1")},
                                  {"toy: two", diff_of("b.txt", 1, "two", "2")},
                                  {"toy: three", diff_of("c.txt", 1, "three", "3")}});
  const auto v2 = write_revision(tmp.path(), 2,
                                 {{"toy: one", diff_of("a.txt", 11, "one", "1")},
                                  {"toy: two", diff_of("b.txt", 1, "two", "II")},
                                  {"toy: four", diff_of("d.txt", 1, "four", "4")}});
  const GatedRevision older = gated_revision(load_series(v1));
  const GatedRevision newer = gated_revision(load_series(v2));
  EXPECT_EQ(older.family, "toy");
  EXPECT_EQ(newer.revision, 2);
  ASSERT_EQ(newer.patches.size(), 3u);
  EXPECT_EQ(newer.patches[0].patch_id.size(), 40u);

  const std::vector<results::CellResult> cells = {
      cell("toy/v2", "apply", results::Outcome::k_pass),
      cell("toy/v2", "pmem memmap-types", results::Outcome::k_fail),
      cell("toy/v2", "pmem kasan", results::Outcome::k_pass),
      cell("toy/v1", "apply", results::Outcome::k_pass),
      cell("toy/v1", "pmem memmap-types", results::Outcome::k_pass),
      cell("toy/v1", "per-patch pmem", results::Outcome::k_pass),
  };
  // Given newest first: compared in revision order all the same.
  const auto comparisons = compare_revisions({newer, older}, cells);
  ASSERT_EQ(comparisons.size(), 1u);
  const auto& c = comparisons[0];
  EXPECT_EQ(c.from, "toy/v1");
  EXPECT_EQ(c.to, "toy/v2");
  EXPECT_EQ(c.count(PatchChange::k_unchanged), 1u);
  EXPECT_EQ(c.count(PatchChange::k_changed), 1u);
  EXPECT_EQ(c.count(PatchChange::k_new), 1u);
  EXPECT_EQ(c.count(PatchChange::k_dropped), 1u);
  ASSERT_EQ(c.cells.size(), 4u);
  EXPECT_FALSE(c.cells[0].changed());
  EXPECT_EQ(c.cells[1].cell, "pmem memmap-types");
  EXPECT_EQ(c.cells[1].from, results::Outcome::k_pass);
  EXPECT_EQ(c.cells[1].to, results::Outcome::k_fail);
  EXPECT_FALSE(c.cells[2].from);  // pmem kasan: new in v2
  EXPECT_EQ(c.cells[3].cell, "per-patch pmem");
  EXPECT_FALSE(c.cells[3].to);  // ran for v1 only

  EXPECT_EQ(render_comparison(c),
            "revisions toy/v1 -> toy/v2\n"
            "  patches (by stable patch-id, then subject): 1 unchanged, 1 changed, 1 new, 1 "
            "dropped\n"
            "    unchanged 1/3   -> 1/3   toy: one\n"
            "    changed   2/3   -> 2/3   toy: two\n"
            "    new       -     -> 3/3   toy: four\n"
            "    dropped   3/3   -> -     toy: three\n"
            "  cells: 3 changed status, 1 unchanged\n"
            "    pass -> pass    apply\n"
            "  ! pass -> fail    pmem memmap-types\n"
            "  ! - -> pass       pmem kasan\n"
            "  ! pass -> -       per-patch pmem\n");

  const auto json = comparisons_json(comparisons);
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["family"], "toy");
  EXPECT_EQ(json[0]["patches"][3]["change"], "dropped");
  EXPECT_TRUE(json[0]["patches"][3]["to"].is_null());
  EXPECT_EQ(json[0]["cells"][1]["from"], "pass");
  EXPECT_EQ(json[0]["cells"][1]["to"], "fail");
  EXPECT_EQ(json[0]["cells"][1]["changed"], true);
  EXPECT_FALSE(json[0].contains("coverage"));  // neither ran the coverage stage

  // With the coverage stage in both: the change of changed lines executed.
  auto covered = cells;
  covered.push_back(cell("toy/v1", "coverage", results::Outcome::k_pass));
  covered.back().properties = {{"coverage.executed", "60"}, {"coverage.changed", "74"}};
  covered.push_back(cell("toy/v2", "coverage", results::Outcome::k_pass));
  covered.back().properties = {{"coverage.executed", "62"}, {"coverage.changed", "80"}};
  const auto with = compare_revisions({older, newer}, covered);
  ASSERT_EQ(with.size(), 1u);
  EXPECT_NE(render_comparison(with[0]).find("  coverage: 60 of 74 -> 62 of 80 changed lines "
                                            "executed\n"),
            std::string::npos);
  EXPECT_EQ(comparisons_json(with)[0]["coverage"]["to"]["changed"], 80);
}

TEST(CompareRevisionsTest, OnlyRevisionsOfOneSeriesAreCompared) {
  const GatedRevision v6{"mm/v6", "mm", 6, {{"mm: a", "1"}}};
  const GatedRevision v10{"mm/v10", "mm", 10, {{"mm: a", "1"}}};
  const GatedRevision v1{"mm/v1", "mm", 1, {{"mm: a", "2"}}};
  const GatedRevision bad{"tail-template-order", "tail-template-order", 6, {{"mm: a", "3"}}};
  const GatedRevision other{"hugetlb/v2", "hugetlb", 2, {{"h: b", "4"}}};
  const auto comparisons = compare_revisions({v10, bad, v6, other, v1, v6}, {});
  ASSERT_EQ(comparisons.size(), 2u);
  EXPECT_EQ(comparisons[0].from, "mm/v1");
  EXPECT_EQ(comparisons[0].to, "mm/v6");
  EXPECT_EQ(comparisons[1].from, "mm/v6");
  EXPECT_EQ(comparisons[1].to, "mm/v10");
  EXPECT_TRUE(compare_revisions({v6}, {}).empty());
}

TEST(CompareRevisionsTest, MboxesOfOneSeriesShareTheirCoverTitle) {
  git::Session session;
  TempDir tmp;
  std::string a, b;
  for (const int revision : {2, 3}) {
    PatchText cover;
    cover.subject = "[PATCH v" + std::to_string(revision) + " 0/1] toy: the series";
    cover.diff.clear();
    PatchText patch;
    patch.subject = "[PATCH v" + std::to_string(revision) + " 1/1] toy: one";
    (revision == 2 ? a : b) = cover.render() + patch.render();
  }
  put_file(tmp / "first.mbox", a);
  put_file(tmp / "second.mbox", b);
  const auto comparisons = compare_revisions({gated_revision(load_series(tmp / "second.mbox")),
                                              gated_revision(load_series(tmp / "first.mbox"))},
                                             {});
  ASSERT_EQ(comparisons.size(), 1u);
  EXPECT_EQ(comparisons[0].family, "title: toy: the series");
  EXPECT_EQ(comparisons[0].from, "first");
  EXPECT_EQ(comparisons[0].count(PatchChange::k_unchanged), 1u);
}

// The bundled v6 -> v10, as the gate reports it: v10 keeps v6's 1/8 and
// 3/8 (now 2/8), drops the helper factoring (2/8), renames memcpy_nt() to
// memcpy_nontemporal() and adds the sanitizer patch (5/8).
TEST(CompareRevisionsTest, BundledV6ToV10) {
  git::Session session;
  const auto patches = testing::source_dir() / "patches" / "zone-device-memmap";
  const auto comparisons = compare_revisions(
      {gated_revision(load_series(patches / "v6")), gated_revision(load_series(patches / "v10"))},
      {});
  ASSERT_EQ(comparisons.size(), 1u);
  const auto& c = comparisons[0];
  EXPECT_EQ(c.count(PatchChange::k_unchanged), 2u);
  EXPECT_EQ(c.count(PatchChange::k_changed), 5u);
  EXPECT_EQ(c.count(PatchChange::k_new), 1u);
  EXPECT_EQ(c.count(PatchChange::k_dropped), 1u);
  const std::string text = render_comparison(c);
  EXPECT_NE(
      text.find("    unchanged 3/8   -> 2/8   mm: add a set_page_section_from_pfn() helper\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("    dropped   2/8   -> -     mm: factor zone-device page init helpers"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    changed   8/8   -> 7/8   mm: use memcpy_nontemporal() in zone-device "
                      "template copies (was: mm: use memcpy_nt() in zone-device template copies)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    new       -     -> 5/8   mm: keep sanitized builds"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace kseries::gate
