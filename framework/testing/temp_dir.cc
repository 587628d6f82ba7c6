#include "testing/temp_dir.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "kseries_source_dir.h"
#include "sys/process.h"

namespace kseries::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "kseries-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  m_path = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

void put_file(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
}

std::string git(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"git"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = dir;
  spec.timeout = std::chrono::seconds(60);
  spec.env = {{"GIT_AUTHOR_NAME", "Test Author"},
              {"GIT_AUTHOR_EMAIL", "author@example.com"},
              {"GIT_COMMITTER_NAME", "Test Committer"},
              {"GIT_COMMITTER_EMAIL", "committer@example.com"},
              {"GIT_CONFIG_NOSYSTEM", "1"},
              {"HOME", dir.string()}};
  const auto result = runner.run(spec);
  if (!result.ok()) {
    throw std::runtime_error("git " + format_command(args) + " failed (" + result.describe() +
                             "): " + result.err);
  }
  std::string out = result.out;
  while (!out.empty() && out.back() == '\n') {
    out.pop_back();
  }
  return out;
}

std::filesystem::path source_dir() { return KSERIES_SOURCE_DIR; }

}  // namespace kseries::testing
