#include "series/subject.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kseries {
namespace {

TEST(SubjectTest, ReadsRevisionAndPosition) {
  const auto s =
      parse_subject("[PATCH v6 3/8] mm: add a set_page_section_from_pfn() helper", "t:1");
  EXPECT_EQ(s.revision, 6);
  EXPECT_EQ(s.index, 3);
  EXPECT_EQ(s.total, 8);
  EXPECT_TRUE(s.numbered);
  EXPECT_FALSE(s.is_cover());
  EXPECT_EQ(s.title, "mm: add a set_page_section_from_pfn() helper");
}

TEST(SubjectTest, CoverLetterIsZeroOfN) {
  const auto s = parse_subject("[PATCH v2 0/2] mm: optimize HugeTLB bootmem hugepage init", "t:1");
  EXPECT_TRUE(s.is_cover());
  EXPECT_EQ(s.revision, 2);
  EXPECT_EQ(s.total, 2);
}

TEST(SubjectTest, NoVersionMeansRevisionOne) {
  const auto s = parse_subject("[PATCH 1/4] mm: factor zone-device page init helpers", "t:1");
  EXPECT_EQ(s.revision, 1);
  EXPECT_EQ(s.index, 1);
  EXPECT_EQ(s.total, 4);
}

TEST(SubjectTest, ZeroPaddedRfcAndSeveralBrackets) {
  const auto s = parse_subject("[RFC PATCH v10 08/10] [net-next] x86/string: extend", "t:1");
  EXPECT_TRUE(s.rfc);
  EXPECT_EQ(s.revision, 10);
  EXPECT_EQ(s.index, 8);
  EXPECT_EQ(s.total, 10);
  EXPECT_EQ(s.title, "x86/string: extend");
}

TEST(SubjectTest, UnnumberedSinglePatch) {
  const auto s = parse_subject("[PATCH] mm: one fix", "t:1");
  EXPECT_FALSE(s.numbered);
  EXPECT_EQ(s.index, 0);
  EXPECT_FALSE(s.is_cover());
  EXPECT_EQ(s.title, "mm: one fix");
}

TEST(SubjectTest, ReplyPrefixIsStripped) {
  const auto s = parse_subject("Re: [PATCH v6 4/8] mm: add a template", "t:1");
  EXPECT_EQ(s.index, 4);
  EXPECT_EQ(s.title, "mm: add a template");
}

TEST(SubjectTest, TitleWithBracketsInsideIsKept) {
  const auto s = parse_subject("[PATCH 2/3] mm: keep [this] text", "t:1");
  EXPECT_EQ(s.title, "mm: keep [this] text");
}

std::string refusal(const std::string& subject) {
  try {
    parse_subject(subject, "x.patch:7");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(SubjectTest, NumbersOutOfRangeAreRefusedNamingTheLine) {
  EXPECT_EQ(refusal("[PATCH 1/99999999999] s"),
            "x.patch:7: subject prefix '1/99999999999': patch count 99999999999 is out of range "
            "(at most 9999)");
  EXPECT_NE(refusal("[PATCH 10000/10000] s").find("patch number 10000 is out of range"),
            std::string::npos);
  EXPECT_NE(refusal("[PATCH v1000] s").find("'v1000': revision 1000 is out of range (at most 999)"),
            std::string::npos);
  // 50 000 digits: the old std::regex overflowed its stack on the word.
  EXPECT_NE(refusal("[PATCH v" + std::string(50000, '7') + "] s").find("out of range"),
            std::string::npos);
  const auto s = parse_subject("[PATCH v999 0009999/9999] s", "x.patch:7");
  EXPECT_EQ(s.revision, 999);
  EXPECT_EQ(s.index, 9999);
  EXPECT_EQ(s.total, 9999);
}

TEST(SubjectTest, WordsThatAreNotNumbersAreIgnored) {
  const auto s = parse_subject("[PATCH v 1/2/3 /4 5/ vx] s", "x.patch:7");
  EXPECT_EQ(s.revision, 1);
  EXPECT_FALSE(s.numbered);
  EXPECT_EQ(s.title, "s");
}

}  // namespace
}  // namespace kseries
