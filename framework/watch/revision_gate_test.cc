#include "watch/revision_gate.h"

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace kseries::watch {
namespace {

RevisionState gated(const std::string& id, int revision, const std::string& email,
                    const std::string& dir) {
  RevisionState s;
  s.message_id = id;
  s.revision = revision;
  s.author_email = email;
  s.family = "change-id: 20260101-victim-0123456789ab";
  s.identity = "change-id 20260101-victim-0123456789ab v" + std::to_string(revision);
  s.phase = Phase::k_answered;
  s.series_dir = dir;
  return s;
}

// Issue 50: any poster could reuse another series' change-id and make the
// victim's next answer open with a false "slower than the previous
// revision" warning. The change-id alone makes no predecessor.
TEST(RevisionGate, APreviousRevisionIsOfTheSameAuthorOrThread) {
  testing::TempDir dir;
  const std::string d = dir.path().string();
  const std::vector<RevisionState> states = {
      gated("victim-v1@x", 1, "victim@example.org", d),
      gated("intruder-v2@x", 2, "intruder@example.com", d),
  };
  RevisionState v3 = gated("victim-v3@x", 3, "Victim@Example.org", d);
  v3.phase = Phase::k_fetched;
  std::string why;
  const RevisionState* previous = previous_revision(states, v3, why);
  ASSERT_NE(previous, nullptr);
  EXPECT_EQ(previous->message_id, "victim-v1@x");
  EXPECT_NE(why.find("intruder-v2@x"), std::string::npos) << why;
  EXPECT_NE(why.find("another author"), std::string::npos) << why;

  // Another poster who continues the series in its thread is its successor.
  RevisionState taken_over = gated("new-owner-v3@x", 3, "new@example.net", d);
  taken_over.references = {"intruder-v2@x"};
  why.clear();
  previous = previous_revision(states, taken_over, why);
  ASSERT_NE(previous, nullptr);
  EXPECT_EQ(previous->message_id, "intruder-v2@x");

  // The intruder's own revision finds no predecessor.
  RevisionState intruder_v4 = gated("intruder-v4@x", 4, "other@example.com", d);
  why.clear();
  EXPECT_EQ(previous_revision({states[0]}, intruder_v4, why), nullptr);
}

}  // namespace
}  // namespace kseries::watch
