#pragma once
// Builds `git format-patch`-shaped messages for parser and series tests.

#include <string>

namespace kseries::testing {

struct PatchText {
  std::string subject = "[PATCH 1/1] demo: change a";
  std::string from = "Li Zhe <lizhe.67@bytedance.com>";
  std::string date = "Thu, 9 Jul 2026 19:25:12 +0800";
  std::string body = "Explain the change.\n\nSigned-off-by: Li Zhe <lizhe.67@bytedance.com>\n";
  std::string diff =
      "diff --git a/a.txt b/a.txt\n"
      "index 1111111..2222222 100644\n"
      "--- a/a.txt\n"
      "+++ b/a.txt\n"
      "@@ -1 +1 @@\n"
      "-one\n"
      "+two\n";
  std::string base_commit;  // empty: no trailer

  std::string render() const;
};

}  // namespace kseries::testing
