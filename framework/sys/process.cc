#include "sys/process.h"

#include <signal.h>
#include <sys/wait.h>

#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <csignal>
#include <fstream>

#include "core/error.h"

namespace kseries {
namespace {

namespace asio = boost::asio;
namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

constexpr auto k_poll_interval = std::chrono::milliseconds(20);

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
  }
  return "unknown";
}

ProcessResult SystemProcessRunner::run(const ProcessSpec& spec) {
  if (spec.argv.empty()) {
    throw infra_error("internal: empty command");
  }
  const auto exe = resolve_program(spec.argv[0]);
  std::optional<std::ofstream> log;
  if (spec.log_file) {
    log.emplace(*spec.log_file, std::ios::app | std::ios::binary);
    if (!*log) {
      throw infra_error("cannot open log file " + spec.log_file->string());
    }
  }

  asio::io_context ioc;
  bp::async_pipe out_pipe(ioc);
  bp::async_pipe err_pipe(ioc);
  bp::group group;
  auto env = boost::this_process::environment();
  for (const auto& [key, value] : spec.env) {
    env[key] = value;
  }
  const std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  const auto cwd = spec.cwd.value_or(std::filesystem::current_path());

  ProcessResult result;
  const auto started = Clock::now();
  std::error_code spawn_ec;
  // stdin is /dev/null, not closed: a child started with fd 0 closed gets
  // fd 0 back from its first pipe(), and for make that is the jobserver's
  // read end, which every recipe then inherits as its stdin
  // (MAKEFLAGS=--jobserver-auth=0,3 was seen on a kernel build).
  bp::child child(bp::exe = exe.string(), bp::args = args, (bp::std_in < bp::null),
                  (bp::std_out > out_pipe), (bp::std_err > err_pipe), group, env,
                  bp::start_dir = cwd.string(), spawn_ec);
  if (spawn_ec) {
    throw infra_error("cannot start " + format_command(spec.argv) + ": " + spawn_ec.message());
  }

  StreamDrain out(out_pipe, spec.capture ? &result.out : nullptr, log ? &*log : nullptr,
                  spec.on_line);
  StreamDrain err(err_pipe, spec.capture ? &result.err : nullptr, log ? &*log : nullptr,
                  spec.on_line);
  out.start();
  err.start();

  bool exited = false;
  bool term_sent = false;
  std::optional<ProcessEnd> forced;  // timed out or interrupted
  asio::steady_timer grace(ioc);
  auto hard_kill = [&]() {
    std::error_code ignored;
    group.terminate(ignored);
    // An orphan outside the group may still hold the pipes: stop reading.
    boost::system::error_code ignored2;
    out_pipe.close(ignored2);
    err_pipe.close(ignored2);
  };
  auto kill_group = [&](ProcessEnd why) {
    if (!forced) {
      forced = why;
    }
    if (spec.kill_grace.count() > 0 && !term_sent) {
      term_sent = true;
      ::kill(-group.native_handle(), SIGTERM);
      grace.expires_after(spec.kill_grace);
      grace.async_wait([&](const boost::system::error_code& ec) {
        if (!ec) {
          hard_kill();
        }
      });
      return;
    }
    hard_kill();
  };

  asio::steady_timer deadline(ioc, spec.timeout);
  deadline.async_wait([&](const boost::system::error_code& ec) {
    if (!ec) {
      kill_group(ProcessEnd::k_timed_out);
    }
  });
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) {
      kill_group(ProcessEnd::k_interrupted);
    }
  });

  // The watchdog is disarmed only after exit *and* EOF on both pipes.
  asio::steady_timer poll(ioc);
  std::function<void()> poll_exit = [&]() {
    poll.expires_after(k_poll_interval);
    poll.async_wait([&](const boost::system::error_code& ec) {
      if (ec) {
        return;
      }
      if (!exited) {
        std::error_code running_ec;
        exited = !child.running(running_ec);
      }
      if (exited && out.at_eof() && err.at_eof()) {
        deadline.cancel();
        signals.cancel();
        grace.cancel();
        return;
      }
      poll_exit();
    });
  };
  poll_exit();
  ioc.run();

  std::error_code ignored;
  group.terminate(ignored);  // nothing of the child's may survive the run
  if (!exited) {
    child.wait(ignored);
  }
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  const int status = child.native_exit_code();
  if (forced) {
    result.end = *forced;
  } else if (WIFSIGNALED(status)) {
    result.end = ProcessEnd::k_signaled;
    result.signal = WTERMSIG(status);
  } else {
    result.end = ProcessEnd::k_exited;
    result.exit_code = WEXITSTATUS(status);
  }
  if (result.end == ProcessEnd::k_interrupted) {
    throw interrupted_error("interrupted while running " + format_command(spec.argv) +
                            " (its process group was killed)");
  }
  return result;
}

}  // namespace kseries
