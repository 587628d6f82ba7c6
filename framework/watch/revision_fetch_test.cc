#include "watch/revision_fetch.h"

#include <gtest/gtest.h>

#include <algorithm>

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
    EXPECT_NE(s.note.find("fetch failed (attempt 2), will try again"), std::string::npos) << s.note;
  }
}

// b4 exits 0 and writes, into its -o directory, the mbox MBOX (nothing
// when MBOX is empty): the thread's series as b4 took it.
class WritingB4 : public ProcessRunner {
 public:
  explicit WritingB4(std::string mbox) : m_mbox(std::move(mbox)) {}
  ProcessResult run(const ProcessSpec& spec) override {
    ProcessResult result;
    result.end = ProcessEnd::k_exited;
    result.exit_code = 0;
    const auto out = std::find(spec.argv.begin(), spec.argv.end(), "-o");
    if (spec.argv.front() != "b4" || out == spec.argv.end()) {
      ADD_FAILURE() << "not b4 am -o: " << spec.argv.front();
      result.exit_code = 2;
      return result;
    }
    ++b4_calls;
    if (!m_mbox.empty()) {
      write_file(std::filesystem::path(*(out + 1)) / "series.mbx", m_mbox);
    }
    return result;
  }
  int b4_calls = 0;

 private:
  std::string m_mbox;
};

std::string patch_mail(const std::string& message_id) {
  return "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
         "From: Poster <poster@example.org>\n"
         "Date: Wed, 2 Dec 2026 08:00:00 +0000\n"
         "Subject: [PATCH] toy: change one line\n"
         "Message-Id: <" +
         message_id +
         ">\n"
         "\n"
         "A lone patch.\n"
         "\n"
         "Signed-off-by: Poster <poster@example.org>\n"
         "---\n"
         " a.txt | 2 +-\n"
         " 1 file changed, 1 insertion(+), 1 deletion(-)\n"
         "\n"
         "diff --git a/a.txt b/a.txt\n"
         "index 0000001..0000002 100644\n"
         "--- a/a.txt\n"
         "+++ b/a.txt\n"
         "@@ -1 +1 @@\n"
         "-one\n"
         "+two\n"
         "-- \n"
         "2.47.3\n"
         "\n";
}

// The revision is the message b4 wrote: fetched, its series directory kept.
TEST(RevisionFetch, AMessageB4WroteIsFetched) {
  if (!find_program("b4")) {
    GTEST_SKIP() << "b4 is not installed";
  }
  testing::TempDir dir;
  RevisionState s = seen();
  s.message_id = "good-mail@example.org";  // a "/" is no message-id the archive reader takes
  s.key = WatchState::key_of(s.message_id);
  WritingB4 runner(patch_mail(s.message_id));
  QuietStatus status;
  fetch_revision(request(dir), runner, status, s);
  EXPECT_EQ(runner.b4_calls, 1);
  EXPECT_EQ(s.phase, Phase::k_fetched) << s.note;
  EXPECT_EQ(s.stamp, "");
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(s.series_dir) / "series"))
      << s.series_dir;
  EXPECT_FALSE(s.identity.empty());
}

// Issue 50 class 3: b4 takes the thread's series; when that is not the
// message the watch found (a reply that looks like a patch, a fixup), the
// message is no revision of its own and is not answered as one.
TEST(RevisionFetch, AMessageB4DidNotWriteIsIgnoredAndSaysWhatB4Took) {
  if (!find_program("b4")) {
    GTEST_SKIP() << "b4 is not installed";
  }
  testing::TempDir dir;
  RevisionState s = seen();
  WritingB4 runner(patch_mail("the-series@example.org"));
  QuietStatus status;
  fetch_revision(request(dir), runner, status, s);
  EXPECT_EQ(s.phase, Phase::k_ignored);
  EXPECT_EQ(s.stamp, "kseries test");
  EXPECT_NE(s.note.find("not a revision of its own: b4 took <the-series@example.org> "
                        "'[PATCH] toy: change one line'"),
            std::string::npos)
      << s.note;
  EXPECT_TRUE(s.series_dir.empty());
}

// b4 exits 0 and finds no series in the thread: the mail's verdict, refused
// with b4's words, not retried on every poll.
TEST(RevisionFetch, AThreadWithoutASeriesIsRefused) {
  if (!find_program("b4")) {
    GTEST_SKIP() << "b4 is not installed";
  }
  testing::TempDir dir;
  RevisionState s = seen();
  WritingB4 runner("");
  QuietStatus status;
  fetch_revision(request(dir), runner, status, s);
  EXPECT_EQ(s.phase, Phase::k_refused);
  EXPECT_EQ(s.stamp, "kseries test");
  EXPECT_NE(s.note.find("not taken: b4 am <bad/mail@example.org>"), std::string::npos) << s.note;
  EXPECT_NE(s.note.find("no series"), std::string::npos) << s.note;
  EXPECT_EQ(s.attempts, 0);
}

}  // namespace
}  // namespace kseries::watch
