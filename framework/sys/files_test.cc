#include "sys/files.h"
#include "sys/file_streams.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <future>

#include "core/error.h"
#include "sys/interrupt.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

namespace fs = std::filesystem;

bool is_named_pipe(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && S_ISFIFO(info.st_mode);
}

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// --junit/--json FILE wrote FILE.partial-PID and renamed it over FILE: a
// FIFO (and, as root, /dev/full) became a regular file. A FIFO here, never
// a real device node.
TEST(FilesTest, ReplaceFileWritesIntoAFifoAndKeepsIt) {
  testing::TempDir tmp;
  const auto fifo = tmp / "report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] {
    std::string got;
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buffer[256];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
      got.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return got;
  });
  replace_file(fifo, "<testsuites/>\n");
  EXPECT_EQ(reader.get(), "<testsuites/>\n");
  EXPECT_TRUE(is_named_pipe(fifo));
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(FilesTest, ReplaceFileFollowsASymlinkAndKeepsIt) {
  testing::TempDir tmp;
  testing::put_file(tmp / "target.xml", "old\n");
  fs::create_symlink("target.xml", tmp / "link.xml");
  replace_file(tmp / "link.xml", "new\n");
  EXPECT_TRUE(fs::is_symlink(tmp / "link.xml"));
  EXPECT_EQ(read_file(tmp / "target.xml"), "new\n");
  // Dangling: the target is created, the link stays.
  fs::create_symlink("made.xml", tmp / "dangling.xml");
  replace_file(tmp / "dangling.xml", "made\n");
  EXPECT_TRUE(fs::is_symlink(tmp / "dangling.xml"));
  EXPECT_EQ(read_file(tmp / "made.xml"), "made\n");
}

TEST(FilesTest, ReplaceFileIsAtomicForARegularFileAndRefusesADirectory) {
  testing::TempDir tmp;
  testing::put_file(tmp / "r.json", "old");
  replace_file(tmp / "r.json", "new");
  EXPECT_EQ(read_file(tmp / "r.json"), "new");
  fs::create_directory(tmp / "dir");
  EXPECT_NE(error_of([&] { replace_file(tmp / "dir", "x"); }).find("it is a directory"),
            std::string::npos);
  EXPECT_TRUE(fs::is_directory(tmp / "dir"));
  // A directory that cannot take the partial file: the old file stays.
  EXPECT_FALSE(error_of([&] { replace_file(tmp / "nowhere" / "r.json", "x"); }).empty());
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 2);
}

// --series /dev/zero was read until memory ran out; a FIFO with no writer
// blocked forever (past SIGTERM). Input files are regular files, bounded.
TEST(FilesTest, ReadFileTakesRegularFilesOfBoundedSizeOnly) {
  testing::TempDir tmp;
  const auto fifo = tmp / "series";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { read_file(fifo); }).find(fifo.string() + ": not a regular file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_file("/dev/zero"); }).find("/dev/zero: not a regular file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_file(tmp.path()); }).find("it is a directory"), std::string::npos);
  testing::put_file(tmp / "big", std::string(11, 'x'));
  EXPECT_NE(error_of([&] { read_file(tmp / "big", 10); }).find("over the limit of 10"),
            std::string::npos);
  EXPECT_EQ(read_file(tmp / "big", 11), std::string(11, 'x'));
  EXPECT_NE(
      error_of([&] { read_file(tmp / "none"); }).find("cannot read " + (tmp / "none").string()),
      std::string::npos);
}

// While blocked on a FIFO with no reader, SIGTERM only set a flag: the
// handlers had SA_RESTART and open(2) carried on waiting. Now the signal
// cuts the call and the write stops as interrupted.
TEST(FilesTest, ASignalInterruptsAWriteBlockedOnAFifo) {
  testing::TempDir tmp;
  const auto fifo = tmp / "junit.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  install_interrupt_handlers();
  reset_interrupt_for_tests();
  const pthread_t blocked = ::pthread_self();
  auto helper = std::async(std::launch::async, [&] {
    ::usleep(200 * 1000);
    ::pthread_kill(blocked, SIGTERM);
    // On the old code the open never returned: a reader, late, so that the
    // test fails instead of hanging.
    ::usleep(3000 * 1000);
    const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ::usleep(500 * 1000);
    ::close(fd);
  });
  std::string error;
  ErrorKind kind = ErrorKind::k_usage;
  try {
    replace_file(fifo, "report");
  } catch (const Error& e) {
    error = e.what();
    kind = e.kind();
  }
  helper.get();
  reset_interrupt_for_tests();
  EXPECT_NE(error.find("interrupted (SIGTERM) writing " + fifo.string()), std::string::npos)
      << error;
  EXPECT_EQ(kind, ErrorKind::k_interrupted);
}

// A cover file of 54 MB was read whole and split into strings (482 MB):
// LineReader holds one line and one read at a time, and bounds both.
TEST(FilesTest, LineReaderStreamsBoundedLines) {
  testing::TempDir tmp;
  std::string text;
  for (int i = 0; i < 100000; ++i) {
    text += "line " + std::to_string(i) + "\n";
  }
  text += "last without newline";
  testing::put_file(tmp / "lines", text);
  LineReader reader(tmp / "lines", 64, 1 << 30);
  std::size_t count = 0;
  std::string last;
  while (const auto line = reader.next()) {
    if (count < 100000) {
      ASSERT_EQ(*line, "line " + std::to_string(count));
    }
    last = std::string(*line);
    ++count;
  }
  EXPECT_EQ(count, 100001u);
  EXPECT_EQ(last, "last without newline");
  EXPECT_EQ(reader.line_number(), 100001u);
  EXPECT_FALSE(reader.next());
  // A line over the bound names the file and line; so does the total.
  testing::put_file(tmp / "long", "ok\n" + std::string(100, 'x') + "\n");
  LineReader long_lines(tmp / "long", 64, 1 << 30);
  EXPECT_EQ(*long_lines.next(), "ok");
  EXPECT_NE(error_of([&] {
              long_lines.next();
            }).find((tmp / "long").string() + ":2: a line longer than 64 bytes"),
            std::string::npos);
  LineReader total(tmp / "lines", 64, 1000);
  EXPECT_NE(error_of([&] {
              while (total.next()) {
              }
            }).find("more than 1000 bytes"),
            std::string::npos);
  EXPECT_NE(error_of([&] { LineReader("/dev/zero", 64, 1 << 30); }).find("not a regular file"),
            std::string::npos);
  testing::put_file(tmp / "empty", "");
  EXPECT_FALSE(LineReader(tmp / "empty", 64, 10).next());
}

// On a full disk nothing new can be written, but a file's own bytes can be
// written over: a report's placeholder is replaced in place.
TEST(FilesTest, OverwriteFileInPlaceNeverPastItsSize) {
  testing::TempDir tmp;
  testing::put_file(tmp / "f", std::string(100, ' '));
  overwrite_file(tmp / "f", "short");
  EXPECT_EQ(read_file(tmp / "f"), "short");
  EXPECT_NE(error_of([&] { overwrite_file(tmp / "f", "longer than five"); }).find("in place"),
            std::string::npos);
  EXPECT_EQ(read_file(tmp / "f"), "short");  // untouched, not cut short
  EXPECT_THROW(overwrite_file(tmp / "none", "x"), Error);
}

TEST(FilesTest, ReadFileTailAndStreams) {
  testing::TempDir tmp;
  testing::put_file(tmp / "log", "0123456789");
  EXPECT_EQ(read_file_tail(tmp / "log", 4), "6789");
  EXPECT_EQ(read_file_tail(tmp / "log", 100), "0123456789");
  const auto fifo = tmp / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(is_stream(fifo));
  EXPECT_TRUE(is_stream("/dev/null"));
  EXPECT_FALSE(is_stream(tmp / "log"));
  EXPECT_FALSE(is_stream(tmp.path()));
  EXPECT_FALSE(is_stream(tmp / "none"));
  EXPECT_NE(error_of([&] { read_file_tail(fifo, 4); }).find("not a regular file"),
            std::string::npos);
  const auto made = make_private_file("kseries-test");
  EXPECT_TRUE(fs::is_regular_file(made));
  EXPECT_NE(made.filename().string().find("kseries-test-"), std::string::npos);
  fs::remove(made);
}

}  // namespace
}  // namespace kseries
