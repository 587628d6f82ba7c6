#include "results/cell_id.h"

#include <stdexcept>
#include <vector>

namespace kseries::results {

namespace {

// Every registered kind: what parse reads a cell's first word against.
std::vector<CellKind>& registered_kinds() {
  static std::vector<CellKind> kinds;
  return kinds;
}

std::optional<CellKind> registered_kind(std::string_view word) {
  for (const CellKind& kind : registered_kinds()) {
    if (kind.word == word) {
      return kind;
    }
  }
  return std::nullopt;
}

// The kinds declared in cell_id.h, registered where parse is.
[[maybe_unused]] const CellKind k_registered[] = {
    register_cell_kind(k_apply_cell),
    register_cell_kind(k_checkpatch_cell),
    register_cell_kind(k_per_patch_cell),
    register_cell_kind(k_coverage_cell),
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

CellKind register_cell_kind(CellKind kind) {
  if (kind.word.empty() || kind.shape == CellShape::k_target_case ||
      kind.word.find(' ') != std::string_view::npos) {
    throw std::logic_error("a cell kind needs a word of its own: '" + std::string(kind.word) + "'");
  }
  if (const auto known = registered_kind(kind.word)) {
    if (*known != kind) {
      throw std::logic_error("cell kind '" + std::string(kind.word) +
                             "' registered twice with different shapes");
    }
    return kind;
  }
  registered_kinds().push_back(kind);
  return kind;
}

std::string CellId::to_string() const {
  switch (kind.shape) {
    case CellShape::k_word:
      return std::string(kind.word);
    case CellShape::k_word_target:
      return std::string(kind.word) + " " + target;
    case CellShape::k_word_target_case:
      return std::string(kind.word) + " " + target + " " + test_case;
    case CellShape::k_target_case:
      break;
  }
  return target + " " + test_case + (variant.empty() ? "" : " (" + variant + ")");
}

std::optional<CellId> CellId::parse(std::string_view text) {
  const auto words = words_of(text);
  if (words.empty()) {
    return std::nullopt;
  }
  if (const auto kind = registered_kind(words[0])) {
    if (kind->shape == CellShape::k_word && words.size() == 1) {
      return CellId{*kind};
    }
    if (kind->shape == CellShape::k_word_target && words.size() == 2) {
      return CellId{*kind, words[1]};
    }
    if (kind->shape == CellShape::k_word_target_case && words.size() == 3) {
      return CellId{*kind, words[1], words[2]};
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
