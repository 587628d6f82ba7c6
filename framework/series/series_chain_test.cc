#include "series/series_chain.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

void make_series(const std::filesystem::path& dir, const std::string& depends) {
  testing::PatchText text;
  testing::put_file(dir / "1.patch", text.render());
  testing::put_file(dir / "series", "1.patch\n");
  if (!depends.empty()) {
    testing::put_file(dir / "depends", depends + "\n");
  }
}

TEST(SeriesChainTest, PrerequisitesComeFirstAndOnce) {
  testing::TempDir tmp;
  make_series(tmp / "base", "");
  make_series(tmp / "mid", "../base");
  make_series(tmp / "top", "../mid\n../base");
  const auto chain = load_series_chain(tmp / "top");
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[0]->name, "base");
  EXPECT_EQ(chain[1]->name, "mid");
  EXPECT_EQ(chain[2]->name, "top");
}

TEST(SeriesChainTest, RefusesACycle) {
  testing::TempDir tmp;
  make_series(tmp / "a", "../b");
  make_series(tmp / "b", "../a");
  try {
    load_series_chain(tmp / "a");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dependency cycle"), std::string::npos);
  }
}

}  // namespace
}  // namespace kseries
