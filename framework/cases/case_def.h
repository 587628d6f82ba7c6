#pragma once
// A testcase definition (testcases/<name>/case.conf): what the case needs
// from the target, extra kernel command line, how long a boot may take.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace kseries::cases {

struct CaseDef {
  std::string name;
  std::filesystem::path dir;
  std::string description;
  std::vector<std::string> needs;  // target features ("pmem", "page-ref-trace")
  std::string cmdline;             // added to the kernel command line
  std::chrono::seconds timeout{900};
};

// Throws Error(k_usage) for an unknown case (listing the known ones) or a
// malformed case.conf (naming file:line).
CaseDef load_case(const std::filesystem::path& testcases_dir, const std::string& name);

}  // namespace kseries::cases
