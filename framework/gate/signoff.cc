#include "gate/signoff.h"

#include <git2.h>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "series/mail.h"

namespace kseries::gate {

namespace {

// "signoff": one a series.
const results::CellKind k_signoff_cell =
    results::register_cell_kind({"signoff", results::CellShape::k_word});

// The one value `signoff:` takes: the author signs off.
constexpr const char *k_author = "author";

}  // namespace

std::vector<std::string> signoff_addresses(const std::string &message) {
  const git::Session session;  // libgit2's allocator
  git_message_trailer_array trailers{};
  if (git_message_trailers(&trailers, message.c_str()) != 0) {
    return {};  // no trailer block git can read: none signed off
  }
  std::vector<std::string> addresses;
  for (std::size_t i = 0; i < trailers.count; ++i) {
    if (to_lower(trailers.trailers[i].key) != "signed-off-by") {
      continue;
    }
    if (const auto person = parse_address(trailers.trailers[i].value)) {
      addresses.push_back(person->email);
    }
  }
  git_message_trailer_array_free(&trailers);
  return addresses;
}

results::CellResult check_signoffs(const std::string &series_name, const std::string &cell,
                                   const Series &series) {
  results::CellResult result{series_name, cell, results::Outcome::k_pass, "", "", 0, {}};
  if (series.patches.empty()) {
    result.status = results::Outcome::k_skip;
    result.summary = "not applicable: the series has no patch of its own to check";
    return result;
  }
  std::size_t unsigned_patches = 0;
  for (std::size_t i = 0; i < series.patches.size(); ++i) {
    const PatchMail &patch = series.patches[i];
    const std::string author = to_lower(patch.author.email);
    bool signed_off = false;
    for (const auto &address : signoff_addresses(patch.commit_message())) {
      signed_off = signed_off || to_lower(address) == author;
    }
    if (!signed_off) {
      ++unsigned_patches;
      result.detail += series.label(i) + ": no 'Signed-off-by: " + patch.author.name + " <" +
                       patch.author.email + ">' (its author)\n";
    }
  }
  const std::string of = " of " + std::to_string(series.patches.size()) + " patch(es)";
  if (unsigned_patches == 0) {
    result.summary = "every patch signed off by its author (" +
                     std::to_string(series.patches.size()) + " patch(es))";
  } else {
    result.status = results::Outcome::k_fail;
    result.summary = std::to_string(unsigned_patches) + of + " not signed off by the author: " +
                     result.detail.substr(0, result.detail.find('\n'));
  }
  return result;
}

namespace {

class SignoffStage final : public Stage {
 public:
  results::CellKind kind() const override { return k_signoff_cell; }
  // Milliseconds of reading messages: they count with checkpatch's, the
  // other check of the patches' text, rather than a line of their own in
  // every gate's time report.
  std::string time_bucket() const override { return "checkpatch"; }
  std::string matrix_key() const override { return "signoff"; }

  void check_matrix_line(const std::vector<std::string> &words,
                         const std::string &where) const override {
    if (words.size() != 1 || words[0] != k_author) {
      throw usage_error(where + ": 'signoff: " + k_author +
                        "' (every patch signed off by its author)");
    }
  }

  std::vector<PlannedCell> plan(const ResolvedMatrix &matrix) const override {
    if (!matrix.stage_lines.contains(matrix_key())) {
      return {};
    }
    return {{results::CellId{k_signoff_cell}, nullptr, nullptr, "series"}};
  }

  std::optional<WorkInput> work(const PlannedCell &, const SeriesInput &) const override {
    return WorkInput{};  // the tip's commits carry the messages and authors
  }

  results::CellResult run(const PlannedCell &planned, SeriesInput &input) const override {
    return check_signoffs(input.name, planned.name(), input.series());
  }

  // Its detail names each patch and the trailer it lacks: nothing to rerun.
  std::vector<std::vector<std::string>> reproduce(const PlannedCell &, const results::CellResult &,
                                                  const ReproduceContext &) const override {
    return {};
  }
};

}  // namespace

const Stage &signoff_stage() {
  static const SignoffStage stage;
  return stage;
}

}  // namespace kseries::gate
