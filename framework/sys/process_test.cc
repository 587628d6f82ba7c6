#include "sys/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/error.h"
#include "sys/files.h"
#include "sys/interrupt.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

ProcessResult sh(const std::string& script,
                 std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", script};
  spec.timeout = timeout;
  return runner.run(spec);
}

TEST(ProcessTest, CapturesStdoutAndStderrApart) {
  const auto result = sh("echo out; echo err >&2");
  EXPECT_TRUE(result.ok());
  EXPECT_EQ(result.out, "out\n");
  EXPECT_EQ(result.err, "err\n");
}

TEST(ProcessTest, ExitNineIsNotSigkill) {
  const auto exited = sh("exit 9");
  EXPECT_EQ(exited.end, ProcessEnd::k_exited);
  EXPECT_EQ(exited.exit_code, 9);
  const auto killed = sh("kill -9 $$");
  EXPECT_EQ(killed.end, ProcessEnd::k_signaled);
  EXPECT_EQ(killed.signal, 9);
  EXPECT_EQ(killed.describe(), "killed by signal 9");
}

TEST(ProcessTest, StdinGivesEndOfFile) {
  const auto result = sh("cat; echo done");
  EXPECT_EQ(result.out, "done\n");
}

TEST(ProcessTest, TimeoutKillsTheWholeGroupIncludingGrandchildren) {
  testing::TempDir tmp;
  const auto pid_file = tmp / "grandchild.pid";
  const auto started = std::chrono::steady_clock::now();
  // The grandchild holds the pipes open; a runner that waited for EOF alone
  // would hang until it exits.
  const auto result =
      sh("sleep 60 & echo $! > " + pid_file.string() + "; wait", std::chrono::milliseconds(500));
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(result.end, ProcessEnd::k_timed_out);
  EXPECT_LT(waited, std::chrono::seconds(5));
  const int pid = std::stoi(read_file(pid_file));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Killed but not yet reaped by its new parent, it is a zombie: dead.
  bool alive = ::kill(pid, 0) == 0;
  const auto stat = "/proc/" + std::to_string(pid) + "/stat";
  if (alive && std::filesystem::exists(stat)) {
    const std::string text = read_file(stat);
    alive = text.substr(text.rfind(')') + 2, 1) != "Z";
  }
  EXPECT_FALSE(alive) << "grandchild " << pid << " survived";
}

// A guest that said "KSERIES poweroff" and hangs in its shutdown: ended
// done_grace after the check first holds, not at the timeout.
TEST(ProcessTest, AChildThatSaidItIsDoneAndHangsIsEndedAfterTheGrace) {
  testing::TempDir tmp;
  const auto said = tmp / "said";
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo done > " + said.string() + "; sleep 60"};
  spec.timeout = std::chrono::seconds(30);
  spec.done = [&] { return std::filesystem::exists(said); };
  spec.done_grace = std::chrono::milliseconds(200);
  const auto result = runner.run(spec);
  EXPECT_EQ(result.end, ProcessEnd::k_hung_after_done);
  EXPECT_LT(result.elapsed, std::chrono::seconds(5));
  EXPECT_NE(result.describe().find("said it was done and did not exit"), std::string::npos);
}

TEST(ProcessTest, AChildThatSaidItIsDoneAndExitsWithinTheGraceExits) {
  testing::TempDir tmp;
  const auto said = tmp / "said";
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo done > " + said.string() + "; sleep 2; exit 3"};
  spec.done = [&] { return std::filesystem::exists(said); };
  spec.done_grace = std::chrono::seconds(10);
  const auto result = runner.run(spec);
  EXPECT_EQ(result.end, ProcessEnd::k_exited);
  EXPECT_EQ(result.exit_code, 3);
}

TEST(ProcessTest, GraceGivesTheGroupSigtermFirst) {
  testing::TempDir tmp;
  SystemProcessRunner runner;
  ProcessSpec spec;
  const auto marker = tmp / "cleaned-up";
  spec.argv = {"sh", "-c",
               "trap 'echo bye > " + marker.string() + "; exit 3' TERM; sleep 30 & wait"};
  spec.timeout = std::chrono::milliseconds(300);
  spec.kill_grace = std::chrono::seconds(5);
  const auto result = runner.run(spec);
  EXPECT_EQ(result.end, ProcessEnd::k_timed_out);
  EXPECT_TRUE(std::filesystem::exists(marker)) << "the TERM handler did not run";
  EXPECT_LT(result.elapsed, std::chrono::seconds(4));
}

// SIGINT/SIGTERM only set a flag (sys/interrupt.h): the runner kills the
// running group at once and starts no other child.
TEST(ProcessTest, SignalKillsTheRunningGroupAndStartsNoOther) {
  install_interrupt_handlers();
  std::thread signaller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGTERM);
  });
  const auto started = std::chrono::steady_clock::now();
  try {
    sh("sleep 30", std::chrono::seconds(20));
    ADD_FAILURE() << "the child was not interrupted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_interrupted) << e.what();
  }
  signaller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_EQ(interrupt_signal(), SIGTERM);
  try {
    sh("echo never");
    ADD_FAILURE() << "a child started after the signal";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "interrupted (SIGTERM) before running sh -c 'echo never'");
  }
  reset_interrupt_for_tests();
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  EXPECT_TRUE(sh("true").ok());
}

TEST(ProcessTest, LinesReachTheCallbackAndTheLogFile) {
  testing::TempDir tmp;
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "printf 'a\\nb\\npartial'"};
  spec.log_file = tmp / "log";
  std::vector<std::string> lines;
  spec.on_line = [&](std::string_view line) { lines.emplace_back(line); };
  const auto result = runner.run(spec);
  EXPECT_TRUE(result.ok());
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "b", "partial"}));
  EXPECT_EQ(read_file(tmp / "log"), "a\nb\npartial");
}

TEST(ProcessTest, MissingProgramIsAnInfrastructureError) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"kseries-no-such-program"};
  try {
    runner.run(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("kseries-no-such-program"), std::string::npos);
  }
}

TEST(ProcessTest, EnvironmentAndWorkingDirectory) {
  testing::TempDir tmp;
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo $KSERIES_T; pwd"};
  spec.env = {{"KSERIES_T", "hello"}};
  spec.cwd = tmp.path();
  const auto result = runner.run(spec);
  EXPECT_EQ(result.out, "hello\n" + std::filesystem::canonical(tmp.path()).string() + "\n");
}

TEST(ProcessTest, TheChildsEnvironmentIsNotOurs) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo \"$KSERIES_ENV_TEST\""};
  spec.env["KSERIES_ENV_TEST"] = "set for this child only";
  EXPECT_EQ(runner.run(spec).out, "set for this child only\n");
  EXPECT_EQ(std::getenv("KSERIES_ENV_TEST"), nullptr) << "kseries' own environment changed";
  spec.env.clear();
  EXPECT_EQ(runner.run(spec).out, "\n") << "a later child inherited the variable";
}

TEST(ProcessTest, StdinIsDevNullNotAClosedDescriptor) {
  // With fd 0 closed, the child's first pipe() would return fd 0 (make's
  // jobserver ended up there). Reading fd 0 must give EOF from /dev/null.
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "readlink /proc/self/fd/0; wc -c"};
  const auto result = runner.run(spec);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "/dev/null\n0\n");
}

TEST(ProcessTest, FormatCommandQuotes) {
  EXPECT_EQ(format_command({"make", "O=/tmp/b", "it's"}), "make O=/tmp/b 'it'\\''s'");
}

}  // namespace
}  // namespace kseries
