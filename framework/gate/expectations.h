#pragma once
// What a known-bad revision must do (lit's XFAIL): an `expect` file in the
// series directory names the cells that must fail and a text each failure
// must contain. A cell named there that passes is an error (the check that
// should have caught the bug did not), and so is any other failing cell.
//   fail: per-patch pmem: does not build
//   fail: pmem memmap-equivalence: fast path differs from slow path

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kseries::gate {

struct Expectation {
  std::string cell;  // "per-patch pmem", "pmem memmap-equivalence"
  std::string text;  // the failure must contain it
  int line = 0;
};

struct Expectations {
  std::filesystem::path file;
  std::vector<Expectation> fails;
  const Expectation* find(const std::string& cell) const;
};

std::optional<Expectations> load_expectations(const std::filesystem::path& series_dir);
Expectations parse_expectations(const std::string& text, const std::filesystem::path& file);

}  // namespace kseries::gate
