#include "qemu/guest_liveness.h"

#include <system_error>

#include "sys/file_streams.h"

namespace kseries::qemu {

namespace {
constexpr std::string_view k_dead_line = "Fixing recursive fault but reboot is needed";
constexpr std::size_t k_console_tail = std::size_t{64} << 10;
}  // namespace

bool DeadGuestWatch::operator()() {
  std::error_code ec;
  const auto size = std::filesystem::file_size(m_protocol, ec);
  const std::string tail = m_dead || !std::filesystem::exists(m_console, ec)
                               ? ""
                               : read_file_tail(m_console, k_console_tail);
  return observe(tail, ec ? 0 : size, Clock::now());
}

bool DeadGuestWatch::observe(std::string_view console_tail, std::uintmax_t protocol_size,
                             Clock::time_point now) {
  if (!m_dead) {
    if (console_tail.find(k_dead_line) == std::string_view::npos) {
      return false;
    }
    m_dead = true;
    m_last_size = protocol_size;
    m_since = now;
    return false;
  }
  if (protocol_size != m_last_size) {  // the guest still reports: let it go on
    m_last_size = protocol_size;
    m_since = now;
    return false;
  }
  if (now - m_since < m_quiet) {
    return false;
  }
  m_why = "the guest's kernel wrote \"" + std::string(k_dead_line) +
          "!\" (a task oopsed while dying) and its protocol port stayed silent for " +
          std::to_string(m_quiet.count()) + " s after: the boot was ended";
  return true;
}

}  // namespace kseries::qemu
