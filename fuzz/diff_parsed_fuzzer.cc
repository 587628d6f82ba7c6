// Fuzzes the check of what libgit2 parsed (git/diff_check.h): any diff text
// git_diff_from_buffer accepts goes through check_parsed_diff. When the check
// passes, every path and mode libgit2 would write must be a safe one.
#include <algorithm>
#include <cctype>
#include <string>

#include "fuzz_input.h"
#include "git/diff_check.h"

namespace {

// Relative, and no component is ".." or ".git" (in any letter case).
bool safe_path(const char* path) {
  if (path == nullptr) {
    return true;
  }
  const std::string p(path);
  if (p.empty() || p.front() == '/') {
    return false;
  }
  std::size_t begin = 0;
  while (begin <= p.size()) {
    const std::size_t end = std::min(p.find('/', begin), p.size());
    std::string part = p.substr(begin, end - begin);
    for (char& c : part) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (part == ".." || part == ".git") {
      return false;
    }
    begin = end + 1;
  }
  return true;
}

bool regular_mode(std::uint32_t mode) {
  return mode == 0 || mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static kseries::git::Session session;
  git_diff* raw = nullptr;
  if (git_diff_from_buffer(&raw, reinterpret_cast<const char*>(data), size) != 0) {
    return 0;
  }
  kseries::git::DiffPtr diff(raw);
  bool passed = false;
  kseries::fuzz::refusal_is_fine([&] {
    kseries::git::check_parsed_diff(diff.get(), "fuzz");
    passed = true;
  });
  if (passed) {
    for (std::size_t d = 0; d < git_diff_num_deltas(diff.get()); ++d) {
      const git_diff_delta* delta = git_diff_get_delta(diff.get(), d);
      kseries::fuzz::require(safe_path(delta->old_file.path) && safe_path(delta->new_file.path));
      kseries::fuzz::require(regular_mode(delta->old_file.mode) &&
                             regular_mode(delta->new_file.mode));
      // A NULL path where the delta needs one crashed the diagnosis and the
      // conflict check (issue 32): refused by the check now.
      kseries::fuzz::require(delta->status == GIT_DELTA_ADDED || delta->old_file.path != nullptr);
      kseries::fuzz::require(delta->status == GIT_DELTA_DELETED || delta->new_file.path != nullptr);
    }
  }
  return 0;
}
