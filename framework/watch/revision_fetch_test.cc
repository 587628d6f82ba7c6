#include "watch/revision_fetch.h"

#include <gtest/gtest.h>

#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::watch {
namespace {

// b4 fails; the inbox answers the probe for the message as PROBE says
// ("200" or "404", or "down": curl cannot connect).
class FailingB4 : public ProcessRunner {
 public:
  explicit FailingB4(std::string probe) : m_probe(std::move(probe)) {}
  ProcessResult run(const ProcessSpec& spec) override {
    ProcessResult result;
    result.end = ProcessEnd::k_exited;
    if (spec.argv.front() == "b4") {
      ++b4_calls;
      result.exit_code = 1;
      result.err = "Traceback (most recent call last):\nUnicodeDecodeError: 'utf-8' codec";
      return result;
    }
    // prlimit ... curl ... -o FILE -- URL
    probes.push_back(spec.argv.back());
    if (m_probe == "200") {
      write_file(spec.argv[spec.argv.size() - 3], "From: x\n\nmail\n");
      result.exit_code = 0;
      result.out = "200";
    } else if (m_probe == "404") {
      result.exit_code = 22;
      result.out = "404";
    } else {
      result.exit_code = 7;
      result.out = "000";
      result.err = "curl: (7) Failed to connect";
    }
    return result;
  }
  int b4_calls = 0;
  std::vector<std::string> probes;

 private:
  std::string m_probe;
};

struct QuietStatus : session::Status {
  void progress(const std::string&) override {}
};

RevisionState seen() {
  RevisionState s;
  s.message_id = "bad/mail@example.org";
  s.key = WatchState::key_of(s.message_id);
  return s;
}

WatchRequest request(const testing::TempDir& dir) {
  WatchRequest r;
  r.inbox_url = "http://127.0.0.1:9/toy";
  r.state_dir = dir / "state";
  r.inputs_dir = dir / "inputs";
  r.intake_stamp = "kseries test";
  std::filesystem::create_directories(r.state_dir);
  return r;
}

// Issue 50: a mail that makes b4 fail was retried on every poll forever,
// reported as infrastructure.
TEST(RevisionFetch, AMailB4FailsOnWhileTheInboxServesItIsRefusedWithB4sReason) {
  if (!find_program("b4")) {
    GTEST_SKIP() << "b4 is not installed";
  }
  testing::TempDir dir;
  FailingB4 runner("200");
  QuietStatus status;
  RevisionState s = seen();
  fetch_revision(request(dir), runner, status, s);
  EXPECT_EQ(s.phase, Phase::k_refused);
  EXPECT_EQ(s.stamp, "kseries test");
  EXPECT_NE(s.note.find("the mail's failure, not the inbox's"), std::string::npos) << s.note;
  EXPECT_NE(s.note.find("UnicodeDecodeError"), std::string::npos) << s.note;
  ASSERT_EQ(runner.probes.size(), 1u);
  EXPECT_EQ(runner.probes[0], "http://127.0.0.1:9/toy/bad%2Fmail@example.org/raw");
}

TEST(RevisionFetch, AnInboxThatDoesNotServeTheMailIsTriedAgain) {
  if (!find_program("b4")) {
    GTEST_SKIP() << "b4 is not installed";
  }
  for (const char* probe : {"404", "down"}) {
    testing::TempDir dir;
    FailingB4 runner(probe);
    QuietStatus status;
    RevisionState s = seen();
    fetch_revision(request(dir), runner, status, s);
    fetch_revision(request(dir), runner, status, s);
    EXPECT_EQ(s.phase, Phase::k_seen) << probe;
    EXPECT_EQ(s.attempts, 2) << probe;
    EXPECT_NE(s.note.find("fetch failed (attempt 2), will try again"), std::string::npos)
        << s.note;
  }
}

}  // namespace
}  // namespace kseries::watch
