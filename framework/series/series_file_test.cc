#include "series/series_file.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "series/series.h"
#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

namespace fs = std::filesystem;
using testing::PatchText;
using testing::put_file;
using testing::TempDir;

std::string patch(const std::string& prefix, int index, int total) {
  PatchText text;
  text.subject = "[PATCH " + prefix + std::to_string(index) + "/" + std::to_string(total) +
                 "] demo: step " + std::to_string(index);
  return text.render();
}

// <tree>/demo/v2 holds two patches; <tree>/bad/one lists a series file.
struct Tree {
  TempDir tmp;
  fs::path root = tmp / "tree";
  fs::path reference = root / "demo" / "v2";
  fs::path derived = root / "bad" / "one";

  Tree() {
    put_file(reference / "0001-a.patch", patch("v2 ", 1, 2));
    put_file(reference / "0002-b.patch", patch("v2 ", 2, 2));
    put_file(reference / "series", "0001-a.patch\n0002-b.patch\n");
  }
  void listing(const std::string& text) { put_file(derived / "series", text); }
};

std::string error_of(const fs::path& dir) {
  std::vector<std::string> notes;
  try {
    list_series_directory(dir, notes);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    return e.what();
  }
  ADD_FAILURE() << "expected list_series_directory to fail";
  return "";
}

TEST(SeriesFileTest, TheSeriesTreeIsTheGrandparent) {
  Tree tree;
  fs::create_directories(tree.derived);
  EXPECT_EQ(series_tree_root(tree.derived), fs::canonical(tree.root));
}

TEST(SeriesFileTest, ListsOwnFilesAndReferencesInOrder) {
  Tree tree;
  put_file(tree.derived / "0002-b.patch", patch("bad v2 ", 2, 2));
  tree.listing("# derived from demo/v2\n../../demo/v2/0001-a.patch\n0002-b.patch\n");
  std::vector<std::string> notes;
  const auto files = list_series_directory(tree.derived, notes);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].file, fs::canonical(tree.reference / "0001-a.patch"));
  EXPECT_TRUE(files[0].referenced);
  EXPECT_EQ(files[0].where, (tree.derived / "series").string() + ":2");
  EXPECT_EQ(files[1].file, tree.derived / "0002-b.patch");
  EXPECT_FALSE(files[1].referenced);
  EXPECT_TRUE(notes.empty());
}

TEST(SeriesFileTest, ASeriesMixesReferencedAndOwnPatches) {
  Tree tree;
  put_file(tree.derived / "0002-b.patch", patch("bad v2 ", 2, 2));
  tree.listing("../../demo/v2/0001-a.patch\n0002-b.patch\n");
  const Series series = load_series(tree.derived);
  ASSERT_EQ(series.patches.size(), 2u);
  EXPECT_EQ(series.name, "one");
  EXPECT_EQ(series.revision, 2);
  // The referenced patch keeps its own subject and file.
  EXPECT_EQ(series.patches[0].raw_subject, "[PATCH v2 1/2] demo: step 1");
  EXPECT_EQ(series.patches[0].file, fs::canonical(tree.reference / "0001-a.patch"));
  EXPECT_EQ(series.patches[1].raw_subject, "[PATCH bad v2 2/2] demo: step 2");
}

TEST(SeriesFileTest, OwnPatchesMayExtendAReferencedRevision) {
  Tree tree;
  put_file(tree.derived / "0003-c.patch", patch("bad v2 ", 3, 3));
  tree.listing("../../demo/v2/0001-a.patch\n../../demo/v2/0002-b.patch\n0003-c.patch\n");
  const Series series = load_series(tree.derived);
  ASSERT_EQ(series.patches.size(), 3u);
  EXPECT_EQ(series.patches[2].raw_subject, "[PATCH bad v2 3/3] demo: step 3");
}

TEST(SeriesFileTest, AnExtensionMustKeepEveryPatchInItsPlace) {
  Tree tree;
  // Its own patch says 3/4: the series has 3.
  put_file(tree.derived / "0003-c.patch", patch("bad v2 ", 3, 4));
  tree.listing("../../demo/v2/0001-a.patch\n../../demo/v2/0002-b.patch\n0003-c.patch\n");
  EXPECT_THROW(load_series(tree.derived), Error);
  // A referenced patch out of its place.
  put_file(tree.derived / "0003-c.patch", patch("bad v2 ", 3, 3));
  tree.listing("../../demo/v2/0002-b.patch\n../../demo/v2/0001-a.patch\n0003-c.patch\n");
  EXPECT_THROW(load_series(tree.derived), Error);
  // An mbox-like directory of its own patches gets no such leeway.
  put_file(tree.derived / "0001-a.patch", patch("bad v2 ", 1, 2));
  put_file(tree.derived / "0002-b.patch", patch("bad v2 ", 2, 2));
  tree.listing("0001-a.patch\n0002-b.patch\n0003-c.patch\n");
  EXPECT_THROW(load_series(tree.derived), Error);
}

TEST(SeriesFileTest, ASiblingRevisionIsInTheTree) {
  Tree tree;
  put_file(tree.root / "demo" / "v3" / "series", "../v2/0001-a.patch\n../v2/0002-b.patch\n");
  std::vector<std::string> notes;
  EXPECT_EQ(list_series_directory(tree.root / "demo" / "v3", notes).size(), 2u);
}

// ../secret.txt is inside the series tree, but no patch: taken, its first
// line came back in the error that refused it as a mail.
TEST(SeriesFileTest, RefusesAReferenceToWhatIsNoOtherRevisionsPatch) {
  Tree tree;
  put_file(tree.root / "bad" / "secret.txt", "password=hunter2\n");
  put_file(tree.reference / "notes.patch", "password=hunter2\n");  // not in v2's series
  put_file(tree.root / "demo" / "loose.patch", patch("v2 ", 1, 2));
  for (const char* entry : {"../secret.txt", "../../demo/v2/notes.patch", "../../demo/loose.patch",
                            "../../demo/v2/series"}) {
    tree.listing(std::string(entry) + "\n");
    const std::string error = error_of(tree.derived);
    EXPECT_NE(error.find("which is not a patch of another revision"), std::string::npos)
        << entry << ": " << error;
    EXPECT_EQ(error.find("hunter2"), std::string::npos) << error;
  }
  EXPECT_THROW(load_series(tree.derived), Error);
}

// A patch listed twice applied onto itself and failed as "context not
// found"; now the listing is refused, naming both lines.
TEST(SeriesFileTest, RefusesAPatchListedTwice) {
  Tree tree;
  put_file(tree.derived / "0002-b.patch", patch("bad v2 ", 2, 2));
  tree.listing("../../demo/v2/0001-a.patch\n0002-b.patch\n./0002-b.patch\n");
  std::string error = error_of(tree.derived);
  EXPECT_NE(error.find("series:3: lists './0002-b.patch' again (first at " +
                       (tree.derived / "series").string() + ":2)"),
            std::string::npos)
      << error;
  tree.listing("../../demo/v2/0001-a.patch\n../../demo/v2/0001-a.patch\n");
  error = error_of(tree.derived);
  EXPECT_NE(error.find("series:2: lists '../../demo/v2/0001-a.patch' again"), std::string::npos)
      << error;
}

TEST(SeriesFileTest, RefusesAReferenceLeavingTheTree) {
  Tree tree;
  put_file(tree.tmp / "outside.patch", patch("v2 ", 1, 2));
  tree.listing("../../../outside.patch\n");
  const std::string error = error_of(tree.derived);
  EXPECT_NE(error.find("series:1: lists '../../../outside.patch', which leaves the series tree " +
                       fs::canonical(tree.root).string()),
            std::string::npos)
      << error;
}

TEST(SeriesFileTest, RefusesADetourOutOfTheTree) {
  Tree tree;
  put_file(tree.tmp / "outside.patch", patch("v2 ", 1, 2));
  tree.listing("../../demo/v2/../../../outside.patch\n");
  EXPECT_NE(error_of(tree.derived).find("leaves the series tree"), std::string::npos);
}

TEST(SeriesFileTest, RefusesAnAbsolutePath) {
  Tree tree;
  tree.listing((tree.reference / "0001-a.patch").string() + "\n");
  const std::string error = error_of(tree.derived);
  EXPECT_NE(error.find("series:1: lists '/"), std::string::npos) << error;
  EXPECT_NE(error.find("an absolute path"), std::string::npos) << error;
}

TEST(SeriesFileTest, RefusesASymlinkOutOfTheTree) {
  Tree tree;
  put_file(tree.tmp / "outside.patch", patch("v2 ", 1, 2));
  fs::create_directory_symlink(tree.tmp.path(), tree.root / "demo" / "escape");
  fs::create_symlink(tree.tmp / "outside.patch", tree.root / "demo" / "v2" / "0003-c.patch");
  tree.listing("../../demo/escape/outside.patch\n");
  std::string error = error_of(tree.derived);
  EXPECT_NE(error.find("resolves to " + fs::canonical(tree.tmp / "outside.patch").string() +
                       " through a symlink, outside the series tree"),
            std::string::npos)
      << error;
  tree.listing("../../demo/v2/0003-c.patch\n");
  EXPECT_NE(error_of(tree.derived).find("through a symlink"), std::string::npos);
  // A plain file name of the directory may not be a way out either.
  fs::create_symlink(tree.tmp / "outside.patch", tree.derived / "local.patch");
  tree.listing("local.patch\n");
  error = error_of(tree.derived);
  EXPECT_NE(error.find("series:1: lists 'local.patch', a symlink to"), std::string::npos) << error;
}

TEST(SeriesFileTest, AMissingReferenceIsAClearError) {
  Tree tree;
  tree.listing("# derived\n../../demo/v2/0001-a.patch\n../../demo/v2/0009-gone.patch\n");
  const std::string error = error_of(tree.derived);
  EXPECT_NE(error.find("series:3: lists '../../demo/v2/0009-gone.patch', which does not exist (" +
                       (fs::canonical(tree.reference) / "0009-gone.patch").string() + ")"),
            std::string::npos)
      << error;
}

TEST(SeriesFileTest, RefusesAReferenceToADirectory) {
  Tree tree;
  tree.listing("../../demo/v2\n");
  EXPECT_NE(error_of(tree.derived).find("which is not a regular file"), std::string::npos);
}

TEST(SeriesFileTest, WithoutASeriesFileTakesPatchesInNameOrder) {
  TempDir tmp;
  put_file(tmp / "d" / "0002-b.patch", "");
  put_file(tmp / "d" / "0001-a.patch", "");
  put_file(tmp / "d" / "notes.txt", "");
  std::vector<std::string> notes;
  const auto files = list_series_directory(tmp / "d", notes);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].file.filename(), "0001-a.patch");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("no series file"), std::string::npos);
}

}  // namespace
}  // namespace kseries
