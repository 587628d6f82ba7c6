#pragma once
// What every subcommand gets: the work directory, the process runner, the
// libgit2 session, and the options common to all commands.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "git/apply.h"
#include "git/libgit2.h"
#include "git/store.h"
#include "series/series.h"
#include "session/session.h"
#include "sys/process.h"
#include "sys/workdir.h"

namespace kseries::cli {

namespace po = boost::program_options;

// Debian's linux-source-6.12 package installs this.
inline constexpr const char* k_default_tarball = "/usr/src/linux-source-6.12.tar.xz";

class Context {
 public:
  explicit Context(ProcessRunner& runner) : m_runner(runner) {}

  ProcessRunner& runner() { return m_runner; }
  // The work directory from --workdir (or the default), made absolute and
  // created on first use.
  WorkDir& workdir();
  // Points runs/latest at this command's newest run (after its report).
  void finish_runs();
  git::Store& store();
  void set_workdir_root(std::filesystem::path root) { m_root = std::move(root); }
  // The work directory's root, absolute, not created.
  std::filesystem::path workdir_root() const;

 private:
  ProcessRunner& m_runner;
  std::optional<std::filesystem::path> m_root;
  std::unique_ptr<WorkDir> m_workdir;
  std::unique_ptr<git::Store> m_store;
};

// --workdir and --help, shared by every command.
po::options_description common_options();

// Throws Error(k_usage) "kseries COMMAND: --NAME VALUE: why" for a numeric
// option out of its range (negative, zero where it counts, absurdly large)
// or a comma list (--setups, --args) with an empty item, a space or quote.
// TYPED: each option's value as the user typed it, for the message.
void check_option_values(const std::string& command, const po::variables_map& vm,
                         const std::map<std::string, std::string>& typed);

// Parses `args` against `options`; prints help and returns false on --help.
// Throws Error(k_usage) naming the bad option, any word that no positional
// description claims, or an empty --workdir.
bool parse_command_line(const std::string& command, const std::string& synopsis,
                        const std::vector<std::string>& args, po::options_description& options,
                        po::variables_map& vm, Context& context,
                        const po::positional_options_description* positional = nullptr);

// The commit to work on: --tree/--base (borrowed, read-only), else the
// imported tarball (imported once).
struct Base {
  git_oid commit{};
  std::string label;
};
po::options_description base_options();
Base resolve_base(Context& context, const po::variables_map& vm);

// Applies a loaded chain (prerequisites first) onto the base in memory for
// a later stage; throws Error(k_check_failed) with the diagnosis when a
// patch does not apply. `upto` limits the last series.
git::ApplyResult apply_series_or_fail(Context& context, const Base& base,
                                      const std::vector<std::unique_ptr<Series>>& chain,
                                      std::optional<std::size_t> upto);

// Where a command's text report goes: stdout, or stderr when --junit - or
// --json - sends a document there (so `--junit - >report.xml` is XML only).
std::ostream& text_report_stream(const po::variables_map& vm);

// Progress line on stderr: "kseries: <text>" with the elapsed time.
void progress(const std::string& text);

// The run layer's progress, printed by progress().
class StderrStatus final : public session::Status {
 public:
  void progress(const std::string& line) override { cli::progress(line); }
};

}  // namespace kseries::cli
