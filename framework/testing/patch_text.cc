#include "testing/patch_text.h"

namespace kseries::testing {

std::string PatchText::render() const {
  std::string out = "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n";
  out += "From: " + from + "\n";
  out += "Date: " + date + "\n";
  out += "Subject: " + subject + "\n";
  out += "\n" + body;
  if (!diff.empty()) {
    out += "---\n a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n" + diff;
  }
  if (!base_commit.empty()) {
    out += "\nbase-commit: " + base_commit + "\n";
  }
  out += "-- \n2.39.5\n\n";
  return out;
}

}  // namespace kseries::testing
