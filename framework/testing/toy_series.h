#pragma once
// Test helper: a toy tree (one file on `main`) and a two-patch series onto
// it ("demo: add b.c", "demo: add c.c"), as `git format-patch --base`
// writes it, with the `series` file kseries reads.

#include <filesystem>
#include <string>

namespace kseries::testing {

struct ToySeries {
  std::filesystem::path repo;    // DIR/toy: main (the base) and demo (the series)
  std::string base;              // the base commit's sha
  std::filesystem::path series;  // DIR/series/demo/v1
};

ToySeries make_toy_series(const std::filesystem::path& dir);

}  // namespace kseries::testing
