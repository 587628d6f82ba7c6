#pragma once
// The one way kseries starts programs: an argv vector (never a shell string),
// stdin closed, the child in its own process group, stdout/stderr drained
// concurrently, a deadline after which the whole group is killed.

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH if it has no '/'
  std::optional<std::filesystem::path> cwd;
  std::map<std::string, std::string> env;  // added to (or replacing in) ours
  // The child's stdin: this file (a mail for sendmail); else /dev/null.
  std::optional<std::filesystem::path> stdin_file;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  // On timeout or Ctrl-C, SIGTERM the group first and SIGKILL it this much
  // later (make deletes half-written targets on SIGTERM); 0: SIGKILL at once.
  std::chrono::milliseconds kill_grace{0};
  // Both streams are appended here as they arrive (the build log, the serial log).
  std::optional<std::filesystem::path> log_file;
  // Keep stdout/stderr in the result (small outputs only).
  bool capture = true;
  // Called with each complete stdout or stderr line (progress reporting).
  std::function<void(std::string_view)> on_line;
  // Polled about once a second while the child runs: once it returns true,
  // the child has said it is done (a guest's "KSERIES poweroff"), and if it
  // has not exited `done_grace` later it is ended (ProcessEnd::k_hung_after_done):
  // a kernel that BUGs with a device lock held never finishes its shutdown.
  std::function<bool()> done;
  std::chrono::milliseconds done_grace{std::chrono::seconds(30)};
};

enum class ProcessEnd { k_exited, k_signaled, k_timed_out, k_interrupted, k_hung_after_done };

struct ProcessResult {
  ProcessEnd end = ProcessEnd::k_exited;
  int exit_code = -1;  // valid when end == k_exited
  int signal = 0;      // valid when end == k_signaled
  std::string out;
  std::string err;
  std::chrono::milliseconds elapsed{0};

  bool ok() const { return end == ProcessEnd::k_exited && exit_code == 0; }
  // "exit 2", "killed by signal 9", "timed out after 30 s", "interrupted",
  // "ended 42 s in: it said it was done and did not exit".
  std::string describe() const;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Throws Error(k_infrastructure) only when the program cannot be started.
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
};

// Runs real processes with Boost.Process.
class SystemProcessRunner : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override;
};

// Full path of a program in PATH, or nullopt.
std::optional<std::filesystem::path> find_program(std::string_view name);

// Renders argv for messages, shell-quoted where needed.
std::string format_command(const std::vector<std::string>& argv);

}  // namespace kseries
