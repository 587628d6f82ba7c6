#include "gate/signoff.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "gate/matrix.h"
#include "gate/plan.h"
#include "series/series.h"
#include "sys/files.h"
#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

namespace fs = std::filesystem;

// A series directory of BODIES, one patch each by Li Zhe, read by the
// series parser as a gate reads it.
Series series_of(const fs::path &dir, const std::vector<std::string> &bodies) {
  std::string list;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    testing::PatchText patch;
    const std::string n = std::to_string(i + 1) + "/" + std::to_string(bodies.size());
    patch.subject = "[PATCH " + n + "] demo: change " + std::to_string(i + 1);
    patch.body = bodies[i];
    const std::string file = "000" + std::to_string(i + 1) + "-demo.patch";
    write_file(dir / file, patch.render());
    list += file + "\n";
  }
  write_file(dir / "series", list);
  return load_series(dir);
}

TEST(SignoffTest, ReadsTheSignedOffByTrailersOfTheLastParagraph) {
  EXPECT_EQ(signoff_addresses("demo: x\n\nWhy.\n\nSigned-off-by: A U Thor <a@x.org>\n"
                              "Reviewed-by: R <r@y.org>\nsigned-off-by: C <C@z.org>\n"),
            (std::vector<std::string>{"a@x.org", "C@z.org"}));
  // Quoted in the body, above the trailer block: not a sign-off.
  EXPECT_TRUE(signoff_addresses("demo: x\n\nSigned-off-by: A <a@x.org>\n\nMore words.\n").empty());
  EXPECT_TRUE(signoff_addresses("demo: x\n").empty());
}

TEST(SignoffTest, EveryPatchSignedOffByItsAuthorPasses) {
  testing::TempDir tmp;
  const auto series =
      series_of(tmp.path(), {"One.\n\nSigned-off-by: Li Zhe <lizhe.67@bytedance.com>\n",
                             // The address compared without case; others may sign too.
                             "Two.\n\nSigned-off-by: Li Zhe <LiZhe.67@ByteDance.com>\n"
                             "Signed-off-by: M Aintainer <m@kernel.org>\n"});
  const auto cell = check_signoffs("demo/v1", "signoff", series);
  EXPECT_EQ(cell.status, results::Outcome::k_pass) << cell.summary << cell.detail;
  EXPECT_EQ(cell.summary, "every patch signed off by its author (2 patch(es))");
  EXPECT_EQ(cell.cell, "signoff");
}

TEST(SignoffTest, APatchWithoutItsAuthorsSignOffFailsNamingItAndTheTrailer) {
  testing::TempDir tmp;
  const auto series =
      series_of(tmp.path(), {"One.\n\nSigned-off-by: Li Zhe <lizhe.67@bytedance.com>\n",
                             "Two, signed off by someone else.\n\n"
                             "Signed-off-by: M Aintainer <m@kernel.org>\n",
                             "Three, not signed off.\n"});
  const auto cell = check_signoffs("demo/v1", "signoff", series);
  EXPECT_EQ(cell.status, results::Outcome::k_fail);
  EXPECT_NE(cell.summary.find("2 of 3 patch(es) not signed off by the author"), std::string::npos)
      << cell.summary;
  EXPECT_NE(cell.detail.find("patch 2/3 'demo: change 2'"), std::string::npos) << cell.detail;
  EXPECT_NE(cell.detail.find("patch 3/3 'demo: change 3'"), std::string::npos) << cell.detail;
  EXPECT_EQ(cell.detail.find("patch 1/3"), std::string::npos) << cell.detail;
  EXPECT_NE(cell.detail.find("no 'Signed-off-by: Li Zhe <lizhe.67@bytedance.com>'"),
            std::string::npos)
      << cell.detail;
}

TEST(SignoffTest, NothingToCheckIsNotApplicable) {
  const auto cell = check_signoffs("empty", "signoff", Series{});
  EXPECT_EQ(cell.status, results::Outcome::k_skip);
  EXPECT_NE(cell.summary.find("not applicable"), std::string::npos);
}

// The stage is on in a matrix with `signoff: author`, after checkpatch;
// its line is checked at load like every matrix line.
TEST(SignoffTest, AMatrixLineTurnsTheStageOn) {
  ResolvedMatrix matrix;
  static_cast<Matrix &>(matrix) = parse_matrix("per-patch: pmem\nsignoff: author\n", "m.matrix");
  EXPECT_EQ(make_gate_plan(matrix).names(),
            (std::vector<std::string>{"apply", "checkpatch", "signoff", "per-patch pmem"}));
  ResolvedMatrix without;
  static_cast<Matrix &>(without) = parse_matrix("per-patch: pmem\n", "m.matrix");
  EXPECT_EQ(make_gate_plan(without).find("signoff"), nullptr);
}

TEST(SignoffTest, AMalformedOrSecondLineIsRefusedWithItsLine) {
  const auto error_of = [](const std::string &text) -> std::string {
    try {
      parse_matrix(text, "m.matrix");
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of("per-patch: pmem\nsignoff: everyone\n").find("m.matrix:2: 'signoff: author'"),
            std::string::npos);
  EXPECT_NE(error_of("per-patch: pmem\nsignoff: author\nsignoff: author\n")
                .find("m.matrix:3: 'signoff:' is already at line 2"),
            std::string::npos);
  EXPECT_NE(error_of("signof: author\n").find("unknown key 'signof' ("), std::string::npos);
  EXPECT_NE(error_of("signof: author\n").find(", signoff)"), std::string::npos);
}

}  // namespace
}  // namespace kseries::gate
