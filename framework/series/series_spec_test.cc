#include "series/series_spec.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_series_spec(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(SeriesSpecTest, AnExistingPathIsAPath) {
  testing::TempDir dir;  // kseries::testing
  const auto spec = parse_series_spec(dir.path().string());
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_path);
}

TEST(SeriesSpecTest, MessageIdsWithAndWithoutBrackets) {
  auto spec = parse_series_spec("<cover.1.git.a@example.com>");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_message_id);
  EXPECT_EQ(spec.message_id, "cover.1.git.a@example.com");
  EXPECT_FALSE(spec.revision.has_value());
  spec = parse_series_spec("20261202-x-v2-0-abc@kernel.org#v3");
  EXPECT_EQ(spec.message_id, "20261202-x-v2-0-abc@kernel.org");
  EXPECT_EQ(spec.revision.value_or(0), 3);
  EXPECT_NE(error_of("a@b#v0").find("'#v' takes a revision"), std::string::npos);
  EXPECT_NE(error_of("a@b#vx").find("'#v' takes a revision"), std::string::npos);
  EXPECT_NE(error_of("a@b@c").find("no message-id"), std::string::npos);
  EXPECT_NE(error_of("<a/b@c>").find("no message-id"), std::string::npos);
}

TEST(SeriesSpecTest, RangesAndBranches) {
  auto spec = parse_series_spec("v6.12..my-branch");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_range);
  EXPECT_EQ(spec.bottom, "v6.12");
  EXPECT_EQ(spec.top, "my-branch");
  spec = parse_series_spec("b4/toy-topic");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_branch);
  EXPECT_EQ(spec.top, "b4/toy-topic");
  EXPECT_NE(error_of("..b").find("both ends"), std::string::npos);
  EXPECT_NE(error_of("a..--upload-pack=x").find("starts with '-'"), std::string::npos);
  EXPECT_NE(error_of("a...b").find("symmetric difference"), std::string::npos);
  EXPECT_NE(error_of("--output=x").find("starts with '-'"), std::string::npos);
}

// Git's revision syntax is never a message-id, '@' or not: base@{0}..main
// was sent to lore as one.
TEST(SeriesSpecTest, RevisionSyntaxWithAnAtIsNoMessageId) {
  auto spec = parse_series_spec("base@{0}..main");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_range);
  EXPECT_EQ(spec.bottom, "base@{0}");
  EXPECT_EQ(spec.top, "main");
  spec = parse_series_spec("@~2..@");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_range);
  EXPECT_EQ(spec.bottom, "@~2");
  EXPECT_EQ(spec.top, "@");
  spec = parse_series_spec("main@{upstream}..topic@{1}");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_range);
  spec = parse_series_spec("v6.12^{commit}..HEAD");
  EXPECT_EQ(spec.kind, SeriesSpecKind::k_range);
  for (const char* revision : {"HEAD@{1}", "b4/topic@{upstream}", "@", "@~1", "v6.12^{tag}"}) {
    spec = parse_series_spec(revision);
    EXPECT_EQ(spec.kind, SeriesSpecKind::k_branch) << revision;
    EXPECT_EQ(spec.top, revision);
  }
  // A real message-id stays one.
  EXPECT_EQ(parse_series_spec("20261202.1-x@kernel.org").kind, SeriesSpecKind::k_message_id);
}

TEST(SeriesSpecTest, HostileText) {
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of(std::string(600, 'a')).find("longer than"), std::string::npos);
  EXPECT_NE(error_of("a\nb").find("control character"), std::string::npos);
  EXPECT_NE(error_of("/" + std::string(300, 'x')).find("series not found"), std::string::npos);
  EXPECT_NE(error_of("a b").find("space"), std::string::npos);
  EXPECT_NE(error_of("/no/such/dir").find("series not found"), std::string::npos);
}

}  // namespace
}  // namespace kseries
