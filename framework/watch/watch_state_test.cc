#include "watch/watch_state.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::watch {
namespace {

RevisionState revision(const std::string& id) {
  RevisionState s;
  s.key = WatchState::key_of(id);
  s.message_id = id;
  s.title = "[PATCH 0/1] " + id;
  return s;
}

TEST(WatchStateTest, RevisionsComeBackInTheOrderFirstSeen) {
  testing::TempDir dir;
  {
    WatchState state(dir / "state");
    for (const std::string id : {"b@x", "a@x", "c@x"}) {
      state.save(revision(id));
    }
    auto a = *state.find("a@x");
    a.phase = Phase::k_gated;
    a.kind = StartKind::k_first_patch;
    a.references = {"r1@x", "r2@x"};
    a.answer = "From: kseries\n\nbody\n";
    state.save(a);  // replaced, keeping its place
  }
  const WatchState state(dir / "state");  // read back from the files
  const auto all = state.all();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].message_id, "b@x");
  EXPECT_EQ(all[1].message_id, "a@x");
  EXPECT_EQ(all[1].phase, Phase::k_gated);
  EXPECT_EQ(all[1].kind, StartKind::k_first_patch);
  EXPECT_EQ(all[1].references, (std::vector<std::string>{"r1@x", "r2@x"}));
  EXPECT_EQ(all[1].answer, "From: kseries\n\nbody\n");
  EXPECT_EQ(all[2].message_id, "c@x");
  EXPECT_EQ(state.find("d@x"), nullptr);
  // Nothing half-written is left beside the files.
  for (const auto& entry : std::filesystem::directory_iterator(dir / "state")) {
    EXPECT_EQ(entry.path().extension(), ".json") << entry.path();
  }
}

TEST(WatchStateTest, CursorAndPollRecordSurviveARestart) {
  testing::TempDir dir;
  {
    const WatchState state(dir / "state");
    ArchiveCursor cursor;
    cursor.epochs[0] = {"http://x/i/git/0.git", std::string(40, 'a'), 1784130898, "fp"};
    cursor.list_address = "i@x";
    state.save_cursor(cursor);
    PollRecord record;
    record.failures = 3;
    record.last_error = "cannot read the inbox";
    state.save_poll_record(record);
  }
  const WatchState state(dir / "state");
  EXPECT_EQ(state.cursor().epochs.at(0).commit, std::string(40, 'a'));
  EXPECT_EQ(state.cursor().epochs.at(0).time, 1784130898);
  EXPECT_EQ(state.cursor().list_address, "i@x");
  EXPECT_EQ(state.poll_record().failures, 3);
  EXPECT_TRUE(state.all().empty());
}

TEST(WatchStateTest, AFileThatIsNotAStateFileIsRefusedByName) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir / "state");
  write_file(dir / "state" / "x.json", R"({"message_id": "a@x", "key": "x", "phase": "bogus"})");
  try {
    WatchState state(dir / "state");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("x.json"), std::string::npos) << e.what();
  }
  write_file(dir / "state" / "x.json", R"({"message_id": 5})");
  EXPECT_THROW(WatchState(dir / "state"), Error);
}

TEST(WatchStateTest, OneWatcherAtATime) {
  testing::TempDir dir;
  std::string holder;
  auto first = lock_watch_state(dir / "state", "kseries watch --inbox A", holder);
  ASSERT_TRUE(first);
  EXPECT_FALSE(lock_watch_state(dir / "state", "kseries watch --inbox B", holder));
  EXPECT_NE(holder.find("kseries watch --inbox A"), std::string::npos) << holder;
}

TEST(WatchStateTest, KeysAreFileSafeAndDistinct) {
  const std::string key = WatchState::key_of("../../etc/passwd@x");
  EXPECT_EQ(key.find('/'), std::string::npos);
  EXPECT_NE(WatchState::key_of("a@x"), WatchState::key_of("a@y"));
}

}  // namespace
}  // namespace kseries::watch
