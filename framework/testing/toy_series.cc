#include "testing/toy_series.h"

#include <algorithm>
#include <vector>

#include "core/text.h"
#include "testing/temp_dir.h"

namespace kseries::testing {

namespace fs = std::filesystem;

ToySeries make_toy_series(const fs::path& dir) {
  ToySeries toy;
  toy.repo = dir / "toy";
  put_file(toy.repo / "a.c", "int a;\n");
  git(toy.repo, {"init", "-q", "-b", "main"});
  git(toy.repo, {"add", "-A"});
  git(toy.repo, {"commit", "-q", "-m", "base"});
  toy.base = git(toy.repo, {"rev-parse", "HEAD"});
  git(toy.repo, {"checkout", "-q", "-b", "demo"});
  for (const char* file : {"b.c", "c.c"}) {
    put_file(toy.repo / file, "int x;\n");
    git(toy.repo, {"add", "-A"});
    git(toy.repo, {"commit", "-q", "-m", std::string("demo: add ") + file});
  }
  toy.series = dir / "series" / "demo" / "v1";
  git(toy.repo,
      {"format-patch", "-q", "-o", toy.series.string(), "--base=" + toy.base, toy.base + "..demo"});
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(toy.series)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  put_file(toy.series / "series", join_lines(names));
  return toy;
}

}  // namespace kseries::testing
