#pragma once
// A guest that cannot go on and will not say so: its kernel wrote "Fixing
// recursive fault but reboot is needed!" (kernel/exit.c make_task_dead(): a
// task oopsed again while dying of an oops, and is left blocked with what
// it held; seen on 2026-12-06 with known-bad/private-template-cache in
// hmm-tests, the guest then idle until the case's one-hour timeout). Once
// that line is on the console and the protocol port has stayed silent for
// a while, the boot is over: nothing more will come.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kseries::qemu {

class DeadGuestWatch {
 public:
  using Clock = std::chrono::steady_clock;
  DeadGuestWatch(std::filesystem::path console, std::filesystem::path protocol,
                 std::chrono::seconds quiet)
      : m_console(std::move(console)), m_protocol(std::move(protocol)), m_quiet(quiet) {}

  // Polled while the guest runs: reads the files' tails and sizes.
  bool operator()();
  // The decision, on what was read: CONSOLE_TAIL the console's last bytes,
  // PROTOCOL_SIZE the protocol file's size, at NOW.
  bool observe(std::string_view console_tail, std::uintmax_t protocol_size, Clock::time_point now);
  // Why the boot was ended ("" while it was not).
  const std::string& why() const { return m_why; }

 private:
  std::filesystem::path m_console;
  std::filesystem::path m_protocol;
  std::chrono::seconds m_quiet;
  std::optional<std::uintmax_t> m_last_size;
  Clock::time_point m_since{};
  bool m_dead = false;
  std::string m_why;
};

}  // namespace kseries::qemu
