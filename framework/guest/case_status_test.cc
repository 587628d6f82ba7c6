#include "guest/case_status.h"

#include <gtest/gtest.h>

#include "core/text.h"

namespace kseries::guest {
namespace {

TEST(CaseStatusTest, ACompleteCaseHasNoProblems) {
  const auto events = parse_protocol(
      "KSERIES boot kernel=6.12.117\n"
      "KSERIES case-start name=memmap-timing\n"
      "KSERIES result status=pass subject=fsdax-mem reason=ok\n"
      "KSERIES result status=skip subject=devdax-dev reason=no pmem map\n"
      "KSERIES case-end name=memmap-timing rc=0\n"
      "KSERIES poweroff\n");
  EXPECT_TRUE(case_problems(events, {"fsdax-mem", "devdax-dev"}).empty());
  EXPECT_EQ(passed_subjects(events), std::set<std::string>{"fsdax-mem"});
}

TEST(CaseStatusTest, AGuestThatDiesEarlyFails) {
  // guest.sh failed before reporting anything: rc 3, no result.
  const auto events = parse_protocol(
      "KSERIES case-start name=demo\n"
      "KSERIES case-end name=demo rc=3\n"
      "KSERIES poweroff\n");
  const std::string text = join_lines(case_problems(events, {"fsdax-dev"}));
  EXPECT_NE(text.find("the case 'demo' exited with rc=3 (protocol line 2)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("no result for setup fsdax-dev"), std::string::npos) << text;
}

TEST(CaseStatusTest, NoCaseEndMeansTheGuestDiedInsideTheCase) {
  const auto events = parse_protocol(
      "KSERIES case-start name=demo\n"
      "KSERIES result status=pass subject=fsdax-dev reason=ok\n");
  const std::string text = join_lines(case_problems(events, {"fsdax-dev"}));
  EXPECT_NE(text.find("did not finish (no case-end"), std::string::npos) << text;
  EXPECT_EQ(text.find("no result"), std::string::npos) << text;
}

TEST(CaseStatusTest, NoCaseStartIsAProblemUnlessTheGuestSaidWhy) {
  EXPECT_EQ(case_problems(parse_protocol("KSERIES boot kernel=x\nKSERIES poweroff\n"), {}).size(),
            1u);
  EXPECT_TRUE(
      case_problems(parse_protocol("KSERIES guest-error reason=no such case: 'x'\n"), {}).empty());
}

// A second "case-end rc=3" after "rc=0" was ignored (only the first
// counted); unknown statuses and negative or huge times passed.
TEST(CaseStatusTest, EveryCaseEndStatusAndMeasurementCounts) {
  const auto events = parse_protocol(
      "KSERIES case-start name=demo\n"
      "KSERIES result status=FAIL subject=fsdax-dev reason=x\n"
      "KSERIES result status=error subject=devdax-dev reason=x\n"
      "KSERIES measure setup=fsdax-dev iter=1 metric=bind_ns value=-5 unit=ns\n"
      "KSERIES measure setup=fsdax-dev iter=2 metric=bind_ns value=1.7976931348623157e308 unit=ns\n"
      "KSERIES measure setup=fsdax-dev iter=3 metric=bind_ns value=nan unit=ns\n"
      "KSERIES case-end name=demo rc=0\n"
      "KSERIES case-end name=demo rc=3\n");
  const std::string text = join_lines(case_problems(events, {"fsdax-dev", "devdax-dev"}));
  EXPECT_NE(text.find("the case 'demo' ended 2 times"), std::string::npos) << text;
  EXPECT_NE(text.find("exited with rc=3 (protocol line 8)"), std::string::npos) << text;
  EXPECT_NE(text.find("result for fsdax-dev has status 'FAIL'"), std::string::npos) << text;
  EXPECT_NE(text.find("result for devdax-dev has status 'error'"), std::string::npos) << text;
  EXPECT_NE(text.find("has value '-5'"), std::string::npos) << text;
  EXPECT_NE(text.find("has value '1.7976931348623157e308'"), std::string::npos) << text;
  EXPECT_NE(text.find("has value 'nan'"), std::string::npos) << text;
  EXPECT_TRUE(passed_subjects(events).empty());
}

}  // namespace
}  // namespace kseries::guest
