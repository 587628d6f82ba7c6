#include "sys/process.h"

#include <signal.h>
#include <sys/wait.h>

#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <csignal>
#include <fstream>

#include "core/error.h"
#include "sys/interrupt.h"

namespace kseries {
namespace {

namespace asio = boost::asio;
namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

constexpr auto k_poll_interval = std::chrono::milliseconds(20);
constexpr int k_done_polls = 50;  // ProcessSpec::done is asked about once a second

// One output stream of the child: read asynchronously, split into lines for
// the progress callback, copied to the capture string and the log file.
class StreamDrain {
 public:
  StreamDrain(bp::async_pipe& pipe, std::string* capture, std::ofstream* log,
              const std::function<void(std::string_view)>& on_line)
      : m_pipe(pipe), m_capture(capture), m_log(log), m_on_line(on_line) {}

  void start() { read_more(); }
  bool at_eof() const { return m_eof; }

 private:
  void read_more() {
    m_pipe.async_read_some(asio::buffer(m_buffer),
                           [this](const boost::system::error_code& ec, std::size_t n) {
                             if (n > 0) {
                               consume(std::string_view(m_buffer.data(), n));
                             }
                             if (ec) {
                               flush_partial_line();
                               m_eof = true;
                               return;
                             }
                             read_more();
                           });
  }

  void consume(std::string_view data) {
    if (m_capture) {
      m_capture->append(data);
    }
    if (m_log) {
      m_log->write(data.data(), static_cast<std::streamsize>(data.size()));
      m_log->flush();
    }
    if (!m_on_line) {
      return;
    }
    m_partial.append(data);
    size_t start = 0;
    for (size_t nl = m_partial.find('\n'); nl != std::string::npos;
         nl = m_partial.find('\n', start)) {
      m_on_line(std::string_view(m_partial).substr(start, nl - start));
      start = nl + 1;
    }
    m_partial.erase(0, start);
  }

  void flush_partial_line() {
    if (m_on_line && !m_partial.empty()) {
      m_on_line(m_partial);
      m_partial.clear();
    }
  }

  bp::async_pipe& m_pipe;
  std::string* m_capture;
  std::ofstream* m_log;
  const std::function<void(std::string_view)>& m_on_line;
  std::array<char, 65536> m_buffer{};
  std::string m_partial;
  bool m_eof = false;
};

std::filesystem::path resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    return name;
  }
  auto found = find_program(name);
  if (!found) {
    throw infra_error("program not found in PATH: " + name);
  }
  return *found;
}

std::optional<std::ofstream> open_log(const ProcessSpec& spec) {
  std::optional<std::ofstream> log;
  if (spec.log_file) {
    log.emplace(*spec.log_file, std::ios::app | std::ios::binary);
    if (!*log) {
      throw infra_error("cannot open log file " + spec.log_file->string());
    }
  }
  return log;
}

// The child's pipes and process group, bound to one io_context.
struct ChildIo {
  explicit ChildIo(asio::io_context& ioc) : out(ioc), err(ioc) {}
  bp::async_pipe out;
  bp::async_pipe err;
  bp::group group;
};

bp::child spawn(const ProcessSpec& spec, const std::filesystem::path& exe, ChildIo& io) {
  // A copy of ours, changed with set(): assigning through
  // this_process::environment() called setenv() on kseries itself (every
  // later child inherited the variables), and Boost 1.74's operator[] /
  // find() read past the end of shorter "NAME=value" strings (ASan:
  // heap-buffer-overflow in basic_environment_impl::find).
  bp::environment env = boost::this_process::environment();
  for (const auto& [key, value] : spec.env) {
    env.set(key, value);
  }
  const std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  const auto cwd = spec.cwd.value_or(std::filesystem::current_path());
  std::error_code spawn_ec;
  // stdin is /dev/null, not closed: a child started with fd 0 closed gets
  // fd 0 back from its first pipe(), and for make that is the jobserver's
  // read end, which every recipe then inherits as its stdin
  // (MAKEFLAGS=--jobserver-auth=0,3 was seen on a kernel build).
  bp::child child =
      spec.stdin_file
          ? bp::child(bp::exe = exe.string(), bp::args = args,
                      (bp::std_in < spec.stdin_file->string()), (bp::std_out > io.out),
                      (bp::std_err > io.err), io.group, env, bp::start_dir = cwd.string(), spawn_ec)
          : bp::child(bp::exe = exe.string(), bp::args = args, (bp::std_in < bp::null),
                      (bp::std_out > io.out), (bp::std_err > io.err), io.group, env,
                      bp::start_dir = cwd.string(), spawn_ec);
  if (spawn_ec) {
    throw infra_error("cannot start " + format_command(spec.argv) + ": " + spawn_ec.message());
  }
  return child;
}

// Ends the child's group when the deadline passes or kseries is interrupted
// (SIGINT/SIGTERM): SIGTERM first when the spec gives a grace period,
// SIGKILL after it.
class Watchdog {
 public:
  Watchdog(asio::io_context& ioc, const ProcessSpec& spec, ChildIo& io)
      : m_spec(spec), m_io(io), m_deadline(ioc, spec.timeout), m_grace(ioc), m_done(ioc) {}

  void arm() {
    m_deadline.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) {
        kill_group(ProcessEnd::k_timed_out);
      }
    });
  }
  void disarm() {
    m_deadline.cancel();
    m_grace.cancel();
    m_done.cancel();
  }
  // Polled: once the spec's `done` holds, the child has done_grace to exit.
  void check_done() {
    if (!m_spec.done || m_done_seen || m_forced) {
      return;
    }
    if (m_spec.done()) {
      m_done_seen = true;
      m_done.expires_after(m_spec.done_grace);
      m_done.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) {
          kill_group(ProcessEnd::k_hung_after_done);
        }
      });
    }
  }
  // Polled: SIGINT/SIGTERM only set a flag (sys/interrupt.h). An asio
  // signal_set would put SIG_DFL back when destroyed, so a signal between
  // two children would kill kseries before it wrote its report.
  void check_interrupt() {
    if (interrupt_signal() != 0 && !m_forced) {
      kill_group(ProcessEnd::k_interrupted);
    }
  }
  // Timed out or interrupted, when the watchdog ended the child.
  std::optional<ProcessEnd> forced() const { return m_forced; }

 private:
  void kill_group(ProcessEnd why) {
    if (!m_forced) {
      m_forced = why;
    }
    if (m_spec.kill_grace.count() > 0 && !m_term_sent) {
      m_term_sent = true;
      ::kill(-m_io.group.native_handle(), SIGTERM);
      m_grace.expires_after(m_spec.kill_grace);
      m_grace.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) {
          hard_kill();
        }
      });
      return;
    }
    hard_kill();
  }

  void hard_kill() {
    std::error_code ignored;
    m_io.group.terminate(ignored);
    // An orphan outside the group may still hold the pipes: stop reading.
    boost::system::error_code ignored2;
    m_io.out.close(ignored2);
    m_io.err.close(ignored2);
  }

  const ProcessSpec& m_spec;
  ChildIo& m_io;
  asio::steady_timer m_deadline;
  asio::steady_timer m_grace;
  asio::steady_timer m_done;
  bool m_done_seen = false;
  bool m_term_sent = false;
  std::optional<ProcessEnd> m_forced;
};

// Runs `ioc` until the child has exited *and* both pipes are at EOF; only
// then is the watchdog disarmed (an orphan grandchild holding the pipes must
// not outlive the timeout). Returns whether the child was seen to exit.
bool run_until_done(asio::io_context& ioc, bp::child& child, const StreamDrain& out,
                    const StreamDrain& err, Watchdog& watchdog) {
  bool exited = false;
  int polls = 0;
  asio::steady_timer poll(ioc);
  std::function<void()> poll_exit = [&]() {
    poll.expires_after(k_poll_interval);
    poll.async_wait([&](const boost::system::error_code& ec) {
      if (ec) {
        return;
      }
      watchdog.check_interrupt();
      if (++polls % k_done_polls == 0 && !exited) {
        watchdog.check_done();
      }
      if (!exited) {
        std::error_code running_ec;
        exited = !child.running(running_ec);
      }
      if (exited && out.at_eof() && err.at_eof()) {
        watchdog.disarm();
        return;
      }
      poll_exit();
    });
  };
  poll_exit();
  ioc.run();
  return exited;
}

// How the child ended: forced by the watchdog, killed by a signal, or exited.
void classify_end(int status, std::optional<ProcessEnd> forced, ProcessResult& result) {
  if (forced) {
    result.end = *forced;
  } else if (WIFSIGNALED(status)) {
    result.end = ProcessEnd::k_signaled;
    result.signal = WTERMSIG(status);
  } else {
    result.end = ProcessEnd::k_exited;
    result.exit_code = WEXITSTATUS(status);
  }
}

}  // namespace

std::optional<std::filesystem::path> find_program(std::string_view name) {
  auto found = bp::search_path(std::string(name));
  if (found.empty()) {
    return std::nullopt;
  }
  return std::filesystem::path(found.string());
}

std::string format_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& arg : argv) {
    if (!out.empty()) {
      out += ' ';
    }
    bool plain = !arg.empty() && arg.find_first_not_of(
                                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789-_./=:,+@%") == std::string::npos;
    if (plain) {
      out += arg;
    } else {
      out += '\'';
      for (char c : arg) {
        if (c == '\'') {
          out += "'\\''";
        } else {
          out += c;
        }
      }
      out += '\'';
    }
  }
  return out;
}

std::string ProcessResult::describe() const {
  switch (end) {
    case ProcessEnd::k_exited:
      return "exit " + std::to_string(exit_code);
    case ProcessEnd::k_signaled:
      return "killed by signal " + std::to_string(signal);
    case ProcessEnd::k_timed_out:
      return "timed out after " + std::to_string(elapsed.count() / 1000) + " s";
    case ProcessEnd::k_interrupted:
      return "interrupted";
    case ProcessEnd::k_hung_after_done:
      return "ended " + std::to_string(elapsed.count() / 1000) +
             " s in: it said it was done and did not exit";
  }
  return "unknown";
}

ProcessResult SystemProcessRunner::run(const ProcessSpec& spec) {
  if (spec.argv.empty()) {
    throw infra_error("internal: empty command");
  }
  // No new child once kseries was asked to stop.
  throw_if_interrupted("before running " + format_command(spec.argv));
  const auto exe = resolve_program(spec.argv[0]);
  auto log = open_log(spec);

  asio::io_context ioc;
  ChildIo io(ioc);
  ProcessResult result;
  const auto started = Clock::now();
  bp::child child = spawn(spec, exe, io);

  StreamDrain out(io.out, spec.capture ? &result.out : nullptr, log ? &*log : nullptr,
                  spec.on_line);
  StreamDrain err(io.err, spec.capture ? &result.err : nullptr, log ? &*log : nullptr,
                  spec.on_line);
  out.start();
  err.start();
  Watchdog watchdog(ioc, spec, io);
  watchdog.arm();
  const bool exited = run_until_done(ioc, child, out, err, watchdog);

  std::error_code ignored;
  io.group.terminate(ignored);  // nothing of the child's may survive the run
  if (!exited) {
    child.wait(ignored);
  }
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  classify_end(child.native_exit_code(), watchdog.forced(), result);
  if (result.end == ProcessEnd::k_interrupted) {
    throw interrupted_error("interrupted while running " + format_command(spec.argv) +
                            " (its process group was killed)");
  }
  return result;
}

}  // namespace kseries
