#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/junit_guard.h"
#include "core/error.h"
#include "core/utf8.h"
#include "kseries_version.h"
#include "sys/interrupt.h"

namespace kseries::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"tree", "import the kernel source as a reproducible base commit (once)", run_tree},
      {"apply", "apply a patch series (and its prerequisites) onto the base with libgit2",
       run_apply},
      {"build", "build a kernel target at the base or a series (each patch with --per-patch)",
       run_build},
      {"boot", "boot a built kernel in QEMU with emulated pmem and run a testcase", run_boot},
      {"gate", "every stage for each series revision, one verdict (with expectations)", run_gate},
      {"bisect", "the first patch of a series at which a check fails or a timing regresses",
       run_bisect},
      {"report", "the HTML page and KCIDB file of an earlier run, from its directory", run_report},
      {"plan", "the gate's cells as independent jobs on N shards (JSON), for CI matrices",
       run_plan},
      {"merge", "merge the run directories of a sharded gate into one report and verdict",
       run_merge},
      {"watch", "poll a public-inbox archive, gate each new series revision, answer by mail",
       run_watch},
      {"coverage",
       "which changed lines of a series a built kernel compiled and executed, and why not",
       run_coverage},
  };
  return table;
}

namespace {

// A run that saw SIGINT or SIGTERM exits 128 + the signal (130, 143) once it
// has written what it has, whatever it would have returned otherwise.
int exit_status(int status) {
  const int signal = interrupt_signal();
  return signal != 0 ? 128 + signal : status;
}

void print_usage(std::ostream& out) {
  out << "usage: kseries <command> [options]\n\n"
         "Validates a Linux kernel patch series: apply every revision, build a config\n"
         "matrix, boot it in QEMU with emulated pmem, measure and compare.\n\n"
         "Commands:\n";
  for (const auto& command : commands()) {
    out << "  " << command.name << std::string(10 - std::string(command.name).size(), ' ')
        << command.summary << "\n";
  }
  out << "\n'kseries <command> --help' describes a command's options.\n"
         "Exit status: 0 pass, 1 a check failed, 2 usage or infrastructure error.\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_usage(std::cerr);
    return static_cast<int>(ExitCode::k_usage_or_infra);
  }
  const std::string name = args.front();
  if (name == "--help" || name == "-h" || name == "help") {
    if (args.size() > 1) {
      args = {args[1], "--help"};
    } else {
      print_usage(std::cout);
      return 0;
    }
  } else if (name == "--version") {
    // The project version (CMake) and the git describe of the build.
    std::cout << "kseries " KSERIES_VERSION " (" KSERIES_GIT_DESCRIBE ")\n";
    return 0;
  }
  const std::string command_name = args.front();
  args.erase(args.begin());
  for (const auto& command : commands()) {
    if (command_name != command.name) {
      continue;
    }
    install_interrupt_handlers();
    git::Session session;
    SystemProcessRunner runner;
    Context context(runner);
    const JunitGuard junit(command_name, args);  // --junit FILE whatever the end
    try {
      junit.arm();
      const int status = command.run(context, junit.arguments(args));
      junit.deliver();        // a FIFO's one document
      context.finish_runs();  // the run wrote its report: runs/latest may move
      if (interrupt_signal() != 0) {
        std::cerr << "kseries " << command_name << ": interrupted ("
                  << signal_name(interrupt_signal()) << "): the report holds what ran\n";
      }
      return exit_status(status);
    } catch (const Error& error) {
      std::cerr << "kseries " << command_name << ": error: " << printable_text(error.describe())
                << "\n";
      junit.record(error);
      return exit_status(static_cast<int>(error.exit_code()));
    } catch (const std::filesystem::filesystem_error& error) {
      // An unreadable directory, a full disk: the OS refused, naming the
      // path (error.what() holds it); not kseries' internal error.
      std::cerr << "kseries " << command_name << ": error: " << printable_text(error.what())
                << " (not the series' fault)\n";
      junit.record(infra_error(error.what()));
      return exit_status(static_cast<int>(ExitCode::k_usage_or_infra));
    } catch (const std::exception& error) {
      std::cerr << "kseries " << command_name
                << ": internal error: " << printable_text(error.what()) << "\n";
      junit.record_internal(error.what());
      return exit_status(static_cast<int>(ExitCode::k_usage_or_infra));
    }
  }
  std::cerr << "kseries: unknown command '" << command_name << "'\n\n";
  print_usage(std::cerr);
  return static_cast<int>(ExitCode::k_usage_or_infra);
}

}  // namespace kseries::cli
