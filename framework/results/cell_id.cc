#include "results/cell_id.h"

#include <vector>

namespace kseries::results {

namespace {

// Every stage's word and what follows it: the one table to_string writes
// and parse reads (a new stage adds its row). A session cell has no word:
// "TARGET CASE [(VARIANT)]".
enum class Shape { k_word, k_word_target, k_word_target_case };

struct StageWord {
  Stage stage;
  std::string_view word;
  Shape shape;
};

constexpr StageWord k_stage_words[] = {
    {Stage::k_apply, "apply", Shape::k_word},
    {Stage::k_checkpatch, "checkpatch", Shape::k_word},
    {Stage::k_per_patch, "per-patch", Shape::k_word_target},
    {Stage::k_per_patch_timing, "per-patch-timing", Shape::k_word_target_case},
    {Stage::k_revision_regression, "revision-regression", Shape::k_word},
    {Stage::k_coverage, "coverage", Shape::k_word},
};

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
  for (const auto& [value, word, shape] : k_stage_words) {
    if (value == stage) {
      switch (shape) {
        case Shape::k_word:
          return std::string(word);
        case Shape::k_word_target:
          return std::string(word) + " " + target;
        case Shape::k_word_target_case:
          return std::string(word) + " " + target + " " + test_case;
      }
    }
  }
  return target + " " + test_case + (variant.empty() ? "" : " (" + variant + ")");
}

std::optional<CellId> CellId::parse(std::string_view text) {
  const auto words = words_of(text);
  if (words.empty()) {
    return std::nullopt;
  }
  for (const auto& [value, word, shape] : k_stage_words) {
    if (words[0] != word) {
      continue;
    }
    if (shape == Shape::k_word && words.size() == 1) {
      return CellId{value};
    }
    if (shape == Shape::k_word_target && words.size() == 2) {
      return CellId{value, words[1]};
    }
    if (shape == Shape::k_word_target_case && words.size() == 3) {
      return CellId{value, words[1], words[2]};
    }
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
