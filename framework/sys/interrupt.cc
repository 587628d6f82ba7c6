#include "sys/interrupt.h"

#include <signal.h>

#include <csignal>

#include "core/error.h"

namespace kseries {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void note_signal(int signal) {
  if (g_signal == 0) {
    g_signal = signal;
  }
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a read or open blocked on a FIFO, a terminal or a slow
  // disk returns EINTR, and the caller stops (throw_if_interrupted); with
  // it, a FIFO with no writer held kseries past SIGTERM until SIGKILL.
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return g_signal; }

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal " + std::to_string(signal);
  }
}

void throw_if_interrupted(const std::string& what) {
  if (const int signal = interrupt_signal(); signal != 0) {
    throw interrupted_error("interrupted (" + signal_name(signal) + ") " + what);
  }
}

void reset_interrupt_for_tests() { g_signal = 0; }

}  // namespace kseries
