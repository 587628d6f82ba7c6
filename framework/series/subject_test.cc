#include "series/subject.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

TEST(SubjectTest, ReadsRevisionAndPosition) {
  const auto s = parse_subject("[PATCH v6 3/8] mm: add a set_page_section_from_pfn() helper");
  EXPECT_EQ(s.revision, 6);
  EXPECT_EQ(s.index, 3);
  EXPECT_EQ(s.total, 8);
  EXPECT_TRUE(s.numbered);
  EXPECT_FALSE(s.is_cover());
  EXPECT_EQ(s.title, "mm: add a set_page_section_from_pfn() helper");
}

TEST(SubjectTest, CoverLetterIsZeroOfN) {
  const auto s = parse_subject("[PATCH v2 0/2] mm: optimize HugeTLB bootmem hugepage init");
  EXPECT_TRUE(s.is_cover());
  EXPECT_EQ(s.revision, 2);
  EXPECT_EQ(s.total, 2);
}

TEST(SubjectTest, NoVersionMeansRevisionOne) {
  const auto s = parse_subject("[PATCH 1/4] mm: factor zone-device page init helpers");
  EXPECT_EQ(s.revision, 1);
  EXPECT_EQ(s.index, 1);
  EXPECT_EQ(s.total, 4);
}

TEST(SubjectTest, ZeroPaddedRfcAndSeveralBrackets) {
  const auto s = parse_subject("[RFC PATCH v10 08/10] [net-next] x86/string: extend");
  EXPECT_TRUE(s.rfc);
  EXPECT_EQ(s.revision, 10);
  EXPECT_EQ(s.index, 8);
  EXPECT_EQ(s.total, 10);
  EXPECT_EQ(s.title, "x86/string: extend");
}

TEST(SubjectTest, UnnumberedSinglePatch) {
  const auto s = parse_subject("[PATCH] mm: one fix");
  EXPECT_FALSE(s.numbered);
  EXPECT_EQ(s.index, 0);
  EXPECT_FALSE(s.is_cover());
  EXPECT_EQ(s.title, "mm: one fix");
}

TEST(SubjectTest, ReplyPrefixIsStripped) {
  const auto s = parse_subject("Re: [PATCH v6 4/8] mm: add a template");
  EXPECT_EQ(s.index, 4);
  EXPECT_EQ(s.title, "mm: add a template");
}

TEST(SubjectTest, TitleWithBracketsInsideIsKept) {
  const auto s = parse_subject("[PATCH 2/3] mm: keep [this] text");
  EXPECT_EQ(s.title, "mm: keep [this] text");
}

}  // namespace
}  // namespace kseries
