#include "gate/revision_compare.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "core/error.h"
#include "git/patch_id.h"
#include "series/revision_identity.h"

namespace kseries::gate {

namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string word; in >> word;) {
    out.push_back(word);
  }
  return out;
}

// Shares at least two thirds of the longer subject's words: "string:
// introduce memcpy_nt() helpers" -> "... memcpy_nontemporal() helpers".
bool reworded(const std::string& a, const std::string& b, double& score) {
  auto left = words(a);
  auto right = words(b);
  if (left.empty() || right.empty()) {
    return false;
  }
  const std::size_t longer = std::max(left.size(), right.size());
  std::sort(left.begin(), left.end());
  std::sort(right.begin(), right.end());
  std::vector<std::string> common;
  std::set_intersection(left.begin(), left.end(), right.begin(), right.end(),
                        std::back_inserter(common));
  score = static_cast<double>(common.size()) / static_cast<double>(longer);
  return 3 * common.size() >= 2 * longer;
}

std::string status_text(const std::optional<results::Outcome>& status) {
  return status ? results::outcome_name(*status) : "-";
}

std::optional<results::Outcome> status_of(const std::vector<results::CellResult>& cells,
                                          const std::string& series, const std::string& cell) {
  for (const auto& c : cells) {
    if (c.series == series && c.cell == cell) {
      return c.status;
    }
  }
  return std::nullopt;
}

std::string position(const std::optional<std::size_t>& index, std::size_t total) {
  return index ? std::to_string(*index) + "/" + std::to_string(total) : "-";
}

}  // namespace

GatedRevision gated_revision(const Series& series) {
  GatedRevision revision{series.name, revision_identity(series).family(), series.revision, {}};
  for (const auto& patch : series.patches) {
    std::string id;
    try {
      id = git::patch_id(patch.diff);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::k_usage) {
        throw;
      }
    }
    revision.patches.push_back({patch.subject.title, id});
  }
  return revision;
}

nlohmann::json gated_revisions_json(const std::vector<GatedRevision>& revisions) {
  nlohmann::json json = nlohmann::json::array();
  for (const auto& r : revisions) {
    nlohmann::json patches = nlohmann::json::array();
    for (const auto& p : r.patches) {
      patches.push_back({{"title", p.title}, {"patch_id", p.patch_id}});
    }
    json.push_back({{"series", r.series},
                    {"family", r.family},
                    {"revision", r.revision},
                    {"patches", patches}});
  }
  return json;
}

std::vector<GatedRevision> gated_revisions_from_json(const nlohmann::json& json) {
  std::vector<GatedRevision> revisions;
  try {
    for (const auto& r : json) {
      GatedRevision revision{r.at("series").get<std::string>(),
                             r.at("family").get<std::string>(),
                             r.at("revision").get<int>(),
                             {}};
      for (const auto& p : r.at("patches")) {
        revision.patches.push_back(
            {p.at("title").get<std::string>(), p.at("patch_id").get<std::string>()});
      }
      revisions.push_back(std::move(revision));
    }
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(std::string("not a list of gated revisions: ") + e.what());
  }
  return revisions;
}

std::string patch_change_name(PatchChange change) {
  switch (change) {
    case PatchChange::k_unchanged:
      return "unchanged";
    case PatchChange::k_changed:
      return "changed";
    case PatchChange::k_new:
      return "new";
    case PatchChange::k_dropped:
      return "dropped";
  }
  return "?";
}

std::size_t RevisionComparison::count(PatchChange change) const {
  return static_cast<std::size_t>(std::count_if(
      patches.begin(), patches.end(), [&](const PatchPairing& p) { return p.change == change; }));
}

std::vector<PatchPairing> pair_patches(const std::vector<RevisionPatch>& from,
                                       const std::vector<RevisionPatch>& to) {
  std::vector<std::optional<std::size_t>> match(to.size());  // to -> from
  std::vector<PatchChange> change(to.size(), PatchChange::k_new);
  std::vector<bool> used(from.size(), false);
  const auto link = [&](std::size_t t, std::size_t f, PatchChange kind) {
    match[t] = f;
    change[t] = kind;
    used[f] = true;
  };
  // First the exact matches, then the same subject: a patch that only
  // moved is unchanged even when another one took its subject.
  for (std::size_t t = 0; t < to.size(); ++t) {
    for (std::size_t f = 0; f < from.size() && !to[t].patch_id.empty(); ++f) {
      if (!used[f] && from[f].patch_id == to[t].patch_id) {
        link(t, f, PatchChange::k_unchanged);
        break;
      }
    }
  }
  for (std::size_t t = 0; t < to.size(); ++t) {
    for (std::size_t f = 0; f < from.size() && !match[t]; ++f) {
      if (!used[f] && from[f].title == to[t].title) {
        link(t, f, PatchChange::k_changed);
      }
    }
  }
  // Reworded subjects, the most similar pairs first.
  std::vector<std::tuple<double, std::size_t, std::size_t>> candidates;
  for (std::size_t t = 0; t < to.size(); ++t) {
    for (std::size_t f = 0; f < from.size(); ++f) {
      double score = 0;
      if (!match[t] && !used[f] && reworded(from[f].title, to[t].title, score)) {
        candidates.emplace_back(-score, t, f);
      }
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (const auto& [score, t, f] : candidates) {
    if (!match[t] && !used[f]) {
      link(t, f, PatchChange::k_changed);
    }
  }

  std::vector<PatchPairing> out;
  std::vector<bool> shown(from.size(), false);
  const auto dropped_before = [&](std::size_t end) {
    for (std::size_t f = 0; f < end; ++f) {
      if (!used[f] && !shown[f]) {
        shown[f] = true;
        out.push_back({PatchChange::k_dropped, f + 1, std::nullopt, from[f].title, ""});
      }
    }
  };
  for (std::size_t t = 0; t < to.size(); ++t) {
    PatchPairing pairing{change[t], std::nullopt, t + 1, to[t].title, ""};
    if (match[t]) {
      dropped_before(*match[t]);
      pairing.from = *match[t] + 1;
      if (from[*match[t]].title != to[t].title) {
        pairing.from_title = from[*match[t]].title;
      }
    }
    out.push_back(std::move(pairing));
  }
  dropped_before(from.size());
  return out;
}

namespace {

std::optional<CoverageFigures> coverage_of(const std::vector<results::CellResult>& cells,
                                           const std::string& series) {
  for (const auto& c : cells) {
    if (c.series != series || c.cell != results::CellId::coverage().to_string()) {
      continue;
    }
    const auto executed = c.properties.find("coverage.executed");
    const auto changed = c.properties.find("coverage.changed");
    if (executed == c.properties.end() || changed == c.properties.end()) {
      return std::nullopt;
    }
    try {
      return CoverageFigures{std::stoul(executed->second), std::stoul(changed->second)};
    } catch (const std::exception&) {
      return std::nullopt;  // a hand-edited gate.json
    }
  }
  return std::nullopt;
}

std::string coverage_text(const CoverageFigures& figures) {
  return std::to_string(figures.executed) + " of " + std::to_string(figures.changed);
}

}  // namespace

std::vector<RevisionComparison> compare_revisions(const std::vector<GatedRevision>& revisions,
                                                  const std::vector<results::CellResult>& cells) {
  std::vector<std::string> families;
  for (const auto& r : revisions) {
    if (std::find(families.begin(), families.end(), r.family) == families.end()) {
      families.push_back(r.family);
    }
  }
  std::vector<RevisionComparison> comparisons;
  for (const auto& family : families) {
    std::vector<const GatedRevision*> line;
    for (const auto& r : revisions) {
      const bool again = std::any_of(line.begin(), line.end(), [&](const GatedRevision* seen) {
        return seen->series == r.series;
      });
      if (r.family == family && !again) {
        line.push_back(&r);
      }
    }
    std::stable_sort(line.begin(), line.end(), [](const GatedRevision* a, const GatedRevision* b) {
      return a->revision < b->revision;
    });
    for (std::size_t i = 1; i < line.size(); ++i) {
      const GatedRevision& older = *line[i - 1];
      const GatedRevision& newer = *line[i];
      RevisionComparison comparison;
      comparison.family = family;
      comparison.from = older.series;
      comparison.to = newer.series;
      comparison.from_patches = older.patches.size();
      comparison.to_patches = newer.patches.size();
      comparison.patches = pair_patches(older.patches, newer.patches);
      for (const auto& c : cells) {
        if (c.series == newer.series) {
          comparison.cells.push_back({c.cell, status_of(cells, older.series, c.cell), c.status});
        }
      }
      for (const auto& c : cells) {
        if (c.series == older.series && !status_of(cells, newer.series, c.cell)) {
          comparison.cells.push_back({c.cell, c.status, std::nullopt});
        }
      }
      comparison.from_coverage = coverage_of(cells, older.series);
      comparison.to_coverage = coverage_of(cells, newer.series);
      comparisons.push_back(std::move(comparison));
    }
  }
  return comparisons;
}

std::string render_comparison(const RevisionComparison& comparison) {
  std::ostringstream out;
  out << "revisions " << comparison.from << " -> " << comparison.to << "\n";
  out << "  patches (by stable patch-id, then subject): "
      << comparison.count(PatchChange::k_unchanged) << " unchanged, "
      << comparison.count(PatchChange::k_changed) << " changed, "
      << comparison.count(PatchChange::k_new) << " new, "
      << comparison.count(PatchChange::k_dropped) << " dropped\n";
  for (const auto& p : comparison.patches) {
    std::string name = patch_change_name(p.change);
    name.resize(10, ' ');
    std::string from = position(p.from, comparison.from_patches);
    from.resize(std::max<std::size_t>(from.size(), 5), ' ');
    std::string to = position(p.to, comparison.to_patches);
    to.resize(std::max<std::size_t>(to.size(), 5), ' ');
    out << "    " << name << from << " -> " << to << " " << p.title
        << (p.from_title.empty() ? "" : " (was: " + p.from_title + ")") << "\n";
  }
  const auto moved = std::count_if(comparison.cells.begin(), comparison.cells.end(),
                                   [](const CellTransition& c) { return c.changed(); });
  out << "  cells: " << moved << " changed status, " << comparison.cells.size() - moved
      << " unchanged\n";
  for (const auto& c : comparison.cells) {
    std::string transition = status_text(c.from) + " -> " + status_text(c.to);
    transition.resize(16, ' ');
    out << "  " << (c.changed() ? "! " : "  ") << transition << c.cell << "\n";
  }
  if (comparison.from_coverage && comparison.to_coverage) {
    out << "  coverage: " << coverage_text(*comparison.from_coverage) << " -> "
        << coverage_text(*comparison.to_coverage) << " changed lines executed\n";
  }
  out << report::render_revision_timings(comparison.timings);
  return out.str();
}

nlohmann::json comparisons_json(const std::vector<RevisionComparison>& comparisons) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& comparison : comparisons) {
    nlohmann::json patches = nlohmann::json::array();
    for (const auto& p : comparison.patches) {
      nlohmann::json patch = {{"change", patch_change_name(p.change)},
                              {"from", p.from ? nlohmann::json(*p.from) : nlohmann::json()},
                              {"to", p.to ? nlohmann::json(*p.to) : nlohmann::json()},
                              {"title", p.title}};
      if (!p.from_title.empty()) {
        patch["from_title"] = p.from_title;
      }
      patches.push_back(std::move(patch));
    }
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& c : comparison.cells) {
      cells.push_back(
          {{"cell", c.cell},
           {"from", c.from ? nlohmann::json(results::outcome_name(*c.from)) : nlohmann::json()},
           {"to", c.to ? nlohmann::json(results::outcome_name(*c.to)) : nlohmann::json()},
           {"changed", c.changed()}});
    }
    nlohmann::json timings = nlohmann::json::array();
    for (const auto& t : comparison.timings) {
      const auto& c = t.comparison;
      timings.push_back({{"cell", t.cell},
                         {"setup", t.setup},
                         {"metric", t.metric},
                         {"unit", t.unit},
                         {"from_mean", c.base.mean},
                         {"to_mean", c.candidate.mean},
                         {"ratio", c.ratio},
                         {"ci95", {c.ratio_interval.low, c.ratio_interval.high}},
                         {"p", c.rank_test.p},
                         {"verdict", stats::verdict_name(c.verdict)},
                         {"reason", c.reason}});
    }
    out.push_back({{"family", comparison.family},
                   {"from", comparison.from},
                   {"to", comparison.to},
                   {"from_patches", comparison.from_patches},
                   {"to_patches", comparison.to_patches},
                   {"patches", std::move(patches)},
                   {"cells", std::move(cells)},
                   {"timing", std::move(timings)}});
    if (comparison.from_coverage && comparison.to_coverage) {
      out.back()["coverage"] = {{"from",
                                 {{"executed", comparison.from_coverage->executed},
                                  {"changed", comparison.from_coverage->changed}}},
                                {"to",
                                 {{"executed", comparison.to_coverage->executed},
                                  {"changed", comparison.to_coverage->changed}}}};
    }
  }
  return out;
}

}  // namespace kseries::gate
