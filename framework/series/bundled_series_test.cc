// The bundled ports in patches/ against the seeds (extracts of ../shared/seeds
// in testdata/seeds): the same subjects, revisions and author as the series
// that was posted.
#include <gtest/gtest.h>

#include <regex>

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

}  // namespace
}  // namespace kseries
