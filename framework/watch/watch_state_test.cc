#include "watch/watch_state.h"

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace kseries::watch {
namespace {

TEST(WatchStateTest, RevisionsComeBackInTheOrderFirstSeen) {
  testing::TempDir dir;
  const WatchState state(dir / "state");
  for (const std::string id : {"b@x", "a@x", "c@x"}) {
    RevisionState s;
    s.key = WatchState::key_of(id);
    s.message_id = id;
    s.title = "[PATCH 0/1] " + id;
    state.save(s);
  }
  auto a = *state.find("a@x");
  a.phase = Phase::k_gated;
  a.answer = "From: kseries\n\nbody\n";
  state.save(a);  // replaced, keeping its place
  const auto all = state.load();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].message_id, "b@x");
  EXPECT_EQ(all[1].message_id, "a@x");
  EXPECT_EQ(all[1].phase, Phase::k_gated);
  EXPECT_EQ(all[1].answer, "From: kseries\n\nbody\n");
  EXPECT_EQ(all[2].message_id, "c@x");
  EXPECT_FALSE(state.find("d@x").has_value());
  // Nothing half-written is left beside the files.
  for (const auto& entry : std::filesystem::directory_iterator(dir / "state")) {
    EXPECT_EQ(entry.path().extension(), ".json") << entry.path();
  }
}

TEST(WatchStateTest, KeysAreFileSafeAndDistinct) {
  const std::string key = WatchState::key_of("../../etc/passwd@x");
  EXPECT_EQ(key.find('/'), std::string::npos);
  EXPECT_NE(WatchState::key_of("a@x"), WatchState::key_of("a@y"));
}

}  // namespace
}  // namespace kseries::watch
