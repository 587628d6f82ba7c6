#pragma once
// Every run asked for --junit FILE leaves a valid JUnit file there, whatever
// its end, so CI shows a red testcase instead of nothing. Before the command
// starts, FILE gets one testcase in error, "did not finish" (what a run
// killed outright leaves behind); the command's own report replaces it; an
// error that ends the command (usage, infrastructure, interrupt, a check
// failed before any report) replaces it with one testcase naming it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "report/junit.h"

namespace kseries::cli {

// The value of --junit FILE or --junit=FILE among a command's arguments,
// before any "--" (what follows it is not an option); nullopt without one,
// and for --help (which writes no report).
std::optional<std::string> junit_option(const std::vector<std::string>& args);

// The same for COMMAND: nullopt when COMMAND has no --junit option (plan,
// tree, report refuse it as a usage error and must not write the file).
std::optional<std::string> junit_option(const std::string& command,
                                        const std::vector<std::string>& args);

// The document for a command that ended early: one suite "kseries COMMAND"
// with one testcase (classname "kseries.COMMAND") named for the kind of
// end ("usage error", "infrastructure error", "interrupted", "check failed",
// "internal error", "did not finish"), the message first in its text.
std::vector<report::TestSuite> early_end_report(const std::string& command, const std::string& end,
                                                const std::string& message,
                                                report::CaseStatus status);

// The most a report written in place of the placeholder may take: the
// placeholder is padded to this size, so that on a full disk the end of
// the run (an infrastructure error naming the full disk) can still be
// written over it, where a new file could not.
inline constexpr std::size_t k_reserved_junit_bytes = 16 * 1024;

class JunitGuard {
 public:
  JunitGuard(std::string command, const std::vector<std::string>& args);
  ~JunitGuard();
  JunitGuard(const JunitGuard&) = delete;
  JunitGuard& operator=(const JunitGuard&) = delete;
  // ARGS as the command is to see them. A FILE that is a stream (a FIFO,
  // a terminal, a device) takes one document, the last: the command
  // writes its reports (a bisection writes one as it goes) to a private
  // file instead, and deliver() hands the last one on.
  std::vector<std::string> arguments(const std::vector<std::string>& args) const;
  // Writes the "did not finish" placeholder, padded to
  // k_reserved_junit_bytes: a regular file only (a stream and "-" get one
  // document, the final one; a stream's private file is made here).
  // Throws Error(k_infrastructure) when FILE cannot be written.
  void arm() const;
  // The command returned: a stream gets the report the command wrote (or
  // one saying it wrote none). Throws as writing FILE does.
  void deliver() const;
  // The command ended with ERROR: its testcase replaces FILE (on a full
  // disk, over the placeholder, in place). Never throws (a report that
  // cannot be written is said on stderr).
  void record(const Error& error) const;
  void record_internal(const std::string& what) const;

 private:
  void write(const std::string& end, const std::string& message, report::CaseStatus status) const;

  std::string m_command;
  std::optional<std::string> m_file;
  bool m_stream = false;
  mutable std::optional<std::filesystem::path> m_private;  // a stream's stand-in, made by arm()
};

}  // namespace kseries::cli
