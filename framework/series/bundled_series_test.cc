// The bundled ports in patches/ against the seeds (extracts of ../shared/seeds
// in testdata/seeds): the same subjects, revisions and author as the series
// that was posted.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "core/text.h"
#include "series/series_chain.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

namespace fs = std::filesystem;

fs::path seeds() { return testing::source_dir() / "framework" / "series" / "testdata" / "seeds"; }
fs::path patches() { return testing::source_dir() / "patches"; }

// "[PATCH v6 3/8] subject" lines of a seed, first occurrence per position.
std::map<int, std::string> seed_subjects(const std::string& seed, const std::string& revision) {
  // Message heads only: the line starts with the subject ("* " in lore
  // thread renderings); thread-index lines carry dates and names around it.
  const std::string text = read_file(seeds() / seed);
  const std::regex pattern("^(\\* )?\\[PATCH " + revision + "(\\d+)/\\d+\\] (.*)$");
  std::map<int, std::string> subjects;
  for (const auto line : split_lines(text)) {
    const std::string head(line);
    std::smatch m;
    if (std::regex_match(head, m, pattern)) {
      subjects.emplace(std::stoi(m[2].str()), m[3].str());
    }
  }
  return subjects;
}

void expect_port_of(const fs::path& dir, const std::string& seed, const std::string& revision,
                    int expected_revision) {
  ASSERT_TRUE(fs::exists(seeds() / seed)) << seeds() / seed;
  ASSERT_TRUE(fs::exists(dir)) << dir;
  const auto chain = load_series_chain(dir);
  const Series& series = *chain.back();
  EXPECT_EQ(series.revision, expected_revision);
  EXPECT_EQ(series.base_commit.value_or(""), "a37409fe4ed9764415b222248aba3dd2ec461db1");
  const auto subjects = seed_subjects(seed, revision);
  ASSERT_FALSE(subjects.empty());
  for (const auto& [index, subject] : subjects) {
    if (index == 0) {
      continue;
    }
    ASSERT_LE(static_cast<std::size_t>(index), series.patches.size()) << subject;
    const auto& patch = series.patches[static_cast<std::size_t>(index - 1)];
    // Subjects wrap in the seed renderings; compare the seed's first line.
    EXPECT_EQ(patch.subject.title.substr(0, subject.size()), subject) << "patch " << index;
    EXPECT_EQ(patch.author.name, "Li Zhe");
    EXPECT_EQ(patch.author.email, "lizhe.67@bytedance.com");
  }
}

TEST(BundledSeriesTest, V6IsThePostedV6) {
  expect_port_of(patches() / "zone-device-memmap" / "v6", "000_294f6fd9f089dbf4.txt", "v6 ", 6);
}

TEST(BundledSeriesTest, HugetlbV2IsThePostedV2OnTopOfV10) {
  expect_port_of(patches() / "hugetlb-bootmem" / "v2", "004_89ea6aad8c5aafff.txt", "v2 ", 2);
  const auto chain = load_series_chain(patches() / "hugetlb-bootmem" / "v2");
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0]->name, "zone-device-memmap/v10");
  EXPECT_EQ(chain[0]->revision, 10);
  EXPECT_EQ(chain[0]->patches.back().subject.title,
            "x86/string: extend memcpy_flushcache() fixed-size fastpaths");
}

TEST(BundledSeriesTest, V1HasFourPatchesAsItsCoverLetterSays) {
  expect_port_of(patches() / "zone-device-memmap" / "v1", "002_1b5fc2207eb4aca8.txt", "", 1);
  const auto chain = load_series_chain(patches() / "zone-device-memmap" / "v1");
  ASSERT_EQ(chain.back()->patches.size(), 4u);
  EXPECT_EQ(chain.back()->patches[3].subject.title,
            "mm: use arch store helpers in zone-device template copies");
}

// The known-bad revisions are derivations: their series files reference the
// reference revision's own files for every patch they do not change, and
// the directories hold nothing else but their own patches.
TEST(BundledSeriesTest, KnownBadRevisionsAreDerivations) {
  // name -> (revision, its own patches, patches in all): the two ports of
  // issue 19 put a ninth patch of their own on top of v10's eight.
  const std::map<std::string, std::tuple<std::string, std::set<std::size_t>, std::size_t>> own = {
      {"build-break", {"v6", {3, 4}, 8}},
      {"perf-regression", {"v6", {5, 8}, 8}},
      {"private-refcount", {"v10", {3, 4, 5, 7}, 8}},
      {"tail-template-order", {"v6", {5, 8}, 8}},
      {"tracepoint-gate", {"v6", {4, 5, 8}, 8}},
      {"sanitizer-ignore", {"v10", {9}, 9}},
      {"tracepoint-ignore", {"v10", {9}, 9}},
  };
  for (const auto& [name, expected] : own) {
    const auto& [revision, changed, count] = expected;
    const fs::path dir = patches() / "known-bad" / name;
    const fs::path reference_dir = fs::canonical(patches() / "zone-device-memmap" / revision);
    const auto chain = load_series_chain(dir);
    ASSERT_EQ(chain.size(), 1u) << name;
    const Series& series = *chain.back();
    const auto reference = load_series_chain(reference_dir);
    ASSERT_EQ(series.patches.size(), count) << name;
    EXPECT_EQ(series.revision, std::stoi(revision.substr(1))) << name;
    std::set<std::string> files = {"README.md", "expect", "series",
                                   series.cover->file.filename().string()};
    for (std::size_t i = 0; i < series.patches.size(); ++i) {
      const PatchMail& patch = series.patches[i];
      if (changed.count(i + 1)) {
        EXPECT_EQ(patch.file.parent_path(), dir) << name << " " << i + 1;
        EXPECT_NE(patch.raw_subject.find("[PATCH known-bad/" + name + " "), std::string::npos)
            << patch.raw_subject;
        files.insert(patch.file.filename().string());
      } else {
        EXPECT_EQ(patch.file.parent_path(), reference_dir) << name << " " << i + 1;
        EXPECT_EQ(patch.diff, reference.back()->patches[i].diff) << name << " " << i + 1;
      }
    }
    std::set<std::string> present;
    for (const auto& entry : fs::directory_iterator(dir)) {
      present.insert(entry.path().filename().string());
    }
    EXPECT_EQ(present, files) << name;
  }
}

// Issue 29's fixture derives from a derivation: v10's 1-7, its own 8/9 (the
// 80-byte case copying 64 bytes), sanitizer-ignore's 9/9.
TEST(BundledSeriesTest, Copy80ShortIsV10WithItsOwn8AndSanitizerIgnores9) {
  const fs::path dir = patches() / "known-bad" / "copy80-short";
  const auto chain = load_series_chain(dir);
  ASSERT_EQ(chain.size(), 1u);
  const Series& series = *chain.back();
  ASSERT_EQ(series.patches.size(), 9u);
  EXPECT_EQ(series.revision, 10);
  const auto v10 = load_series_chain(patches() / "zone-device-memmap" / "v10");
  const auto ignore = load_series_chain(patches() / "known-bad" / "sanitizer-ignore");
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(series.patches[i].diff, v10.back()->patches[i].diff) << i + 1;
  }
  EXPECT_EQ(series.patches[8].diff, ignore.back()->patches[8].diff);
  const PatchMail& own = series.patches[7];
  EXPECT_EQ(own.file.parent_path(), dir);
  EXPECT_NE(own.raw_subject.find("[PATCH known-bad/copy80-short v10 8/9]"), std::string::npos)
      << own.raw_subject;
  EXPECT_EQ(own.subject.title, v10.back()->patches[7].subject.title);
  // The one change against v10's 8/8: the 80-byte case without its last 16 bytes.
  const std::string& good = v10.back()->patches[7].diff;
  EXPECT_NE(good.find("case 80: movnti_64(dst, src); movnti_16(dst + 64, src + 64); break;"),
            std::string::npos);
  EXPECT_EQ(own.diff.find("movnti_16(dst + 64, src + 64); break;"), std::string::npos);
  EXPECT_NE(own.diff.find("+\tcase 80: movnti_64(dst, src); break;\n"), std::string::npos);
  EXPECT_NE(own.diff.find("case 96: movnti_64(dst, src); movnti_32(dst + 64, src + 64); break;"),
            std::string::npos);
}

}  // namespace
}  // namespace kseries
