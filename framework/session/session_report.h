#pragma once
// A session's results rendered three ways from the same records: the text
// report (stdout, boot.txt), results.json, and one JUnit suite; plus the
// session's verdict (failed or not). Renders only: it boots nothing.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "memcost/profile.h"
#include "qemu/vm.h"
#include "report/junit.h"
#include "results/session_record.h"
#include "session/boot_session.h"
#include "session/oracle.h"
#include "session/session.h"

namespace kseries::session {

struct SessionFacts {
  std::string target;
  std::string test_case;
  const Oracle* oracle = nullptr;
  std::string accel;
  std::string accel_note;
  qemu::Clock clock = qemu::Clock::k_wall;
  bool adaptive = false;
  std::string pmem;
  std::string pmem_size;
  std::filesystem::path run_dir;
  std::vector<std::pair<std::string, std::string>> skipped_setups;  // (setup, why)
  std::string memory_model{};  // the memory clock's profile, described ("" otherwise)
  std::optional<memcost::MachineProfile> memory_profile{};  // the same, to split its terms
  NewPath new_path{};  // whether the candidate changes the case's path (session/new_path.h)
  // Where the namespaces of the setups lay ("aligned: 2048M at 4096M", ...;
  // qemu/pmem_layout.h), for every report: empty for a case without pmem.
  std::vector<std::string> layouts{};
};

struct SessionReport {
  std::string text;
  results::SessionRecord record;  // what results.json holds (results::to_json)
  report::TestSuite suite;
  bool failed = false;
};

// "skipped setup S on T: why" lines and skipped testcases, also for a
// session that ends before any boot.
void add_skipped_setups(const SessionFacts& facts, std::string& text, report::TestSuite& suite);

// The whole report of a finished session. Progress of the pair judgements
// goes to STATUS.
SessionReport render_session(const SessionFacts& facts, const std::vector<KernelUnderTest>& kernels,
                             const SessionResult& result, Status& status);

}  // namespace kseries::session
