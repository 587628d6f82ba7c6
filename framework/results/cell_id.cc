#include "results/cell_id.h"

#include <vector>

namespace kseries::results {

namespace {

constexpr std::string_view k_per_patch = "per-patch";
constexpr std::string_view k_per_patch_timing = "per-patch-timing";

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find(' ', at);
    const auto word = text.substr(at, end == std::string_view::npos ? end : end - at);
    if (!word.empty()) {
      words.emplace_back(word);
    }
    if (end == std::string_view::npos) {
      break;
    }
    at = end + 1;
  }
  return words;
}

}  // namespace

std::string CellId::to_string() const {
  switch (stage) {
    case Stage::k_apply:
      return "apply";
    case Stage::k_checkpatch:
      return "checkpatch";
    case Stage::k_revision_regression:
      return "revision-regression";
    case Stage::k_coverage:
      return "coverage";
    case Stage::k_per_patch:
      return std::string(k_per_patch) + " " + target;
    case Stage::k_per_patch_timing:
      return std::string(k_per_patch_timing) + " " + target + " " + test_case;
    case Stage::k_session:
      return target + " " + test_case + (variant.empty() ? "" : " (" + variant + ")");
  }
  return "?";
}

std::optional<CellId> CellId::parse(std::string_view text) {
  if (text == "apply") {
    return apply();
  }
  if (text == "checkpatch") {
    return checkpatch();
  }
  if (text == "revision-regression") {
    return revision_regression();
  }
  if (text == "coverage") {
    return coverage();
  }
  const auto words = words_of(text);
  if (words.size() == 2 && words[0] == k_per_patch) {
    return per_patch(words[1]);
  }
  if (words.size() == 3 && words[0] == k_per_patch_timing) {
    return per_patch_timing(words[1], words[2]);
  }
  if (words.size() == 2) {
    return session(words[0], words[1]);
  }
  if (words.size() == 3 && words[2].size() > 2 && words[2].front() == '(' &&
      words[2].back() == ')') {
    return session(words[0], words[1], words[2].substr(1, words[2].size() - 2));
  }
  return std::nullopt;
}

}  // namespace kseries::results
