#pragma once
// The table of subcommands. Each returns the process exit code (0 pass,
// 1 a check failed); usage and infrastructure errors are thrown as Error.

#include <string>
#include <vector>

#include "cli/context.h"
#include "gate/gate.h"
#include "report/junit.h"
#include "session/session_runner.h"

namespace kseries::cli {

using CommandFn = int (*)(Context&, const std::vector<std::string>&);

struct Command {
  const char* name;
  const char* summary;
  CommandFn run;
};

int run_tree(Context& context, const std::vector<std::string>& args);
int run_apply(Context& context, const std::vector<std::string>& args);
int run_build(Context& context, const std::vector<std::string>& args);
int run_boot(Context& context, const std::vector<std::string>& args);
int run_gate(Context& context, const std::vector<std::string>& args);
int run_bisect(Context& context, const std::vector<std::string>& args);
int run_report(Context& context, const std::vector<std::string>& args);
int run_plan(Context& context, const std::vector<std::string>& args);
int run_merge(Context& context, const std::vector<std::string>& args);
int run_watch(Context& context, const std::vector<std::string>& args);
int run_coverage(Context& context, const std::vector<std::string>& args);

// The gate's JUnit suites (one per series, one testcase per cell), for
// `kseries gate` and `kseries merge` alike.
std::vector<report::TestSuite> gate_junit_suites(const gate::GateResult& result);
// The end of a gate and of a merge alike: the text report (render_gate,
// then TRAILER, then the run directory) on stdout and in RUN_DIR/gate.txt,
// junit.xml, --junit/--json/--html/--kcidb; the exit code of RESULT.
int finish_gate(const gate::GateResult& result, const std::filesystem::path& run_dir,
                const std::string& trailer, const po::variables_map& vm);

// --configs, else the bundled kernel-configs/.
std::filesystem::path configs_dir(const po::variables_map& vm);

// --reuse-base-boots and --reuse-boots (session/boot_cache.h), for boot and
// gate.
void add_boot_reuse_options(po::options_description& options);

// The memory clock's options (--memory-profile, --memory-unscaled,
// --memory-llc), for boot, gate and bisect; applied to a session request.
// The profile is read (and checked) at once, before any work.
void add_memory_clock_options(po::options_description& options);
// Error(k_usage) for a --clock that names no clock.
memcost::MemoryClockSettings memory_clock_settings(const po::variables_map& vm,
                                                   const std::string& clock);

// --testcases, else the bundled testcases/.
std::filesystem::path testcases_dir(const po::variables_map& vm);

// The test modules of TESTCASES: every <case>/ directory with a Kbuild.
std::vector<std::filesystem::path> test_module_dirs(const std::filesystem::path& testcases);

const std::vector<Command>& commands();

// The whole program: dispatch, error reporting, exit codes.
int main(int argc, char** argv);

}  // namespace kseries::cli
