#include "gate/stage.h"

#include <stdexcept>

#include "gate/reproducer.h"

namespace kseries::gate {

std::optional<WorkInput> Stage::work(const PlannedCell&, const SeriesInput&) const {
  return std::nullopt;
}

void Stage::check_matrix_line(const std::vector<std::string>&, const std::string& where) const {
  throw std::logic_error(where + ": a stage with a matrix key checks its line");
}

results::CellResult Stage::run(const PlannedCell& cell, SeriesInput&) const {
  throw std::logic_error(cell.name() + ": not a per-series stage");
}

std::vector<results::CellResult> Stage::run_after(const PlannedCell& cell,
                                                  const AfterSeriesInput&) const {
  throw std::logic_error(cell.name() + ": not an after-series stage");
}

std::vector<std::vector<std::string>> Stage::reproduce(const PlannedCell&,
                                                       const results::CellResult& cell,
                                                       const ReproduceContext& context) const {
  return reproduce_commands(context.inputs, context.series_index, cell.cell, nullptr, false);
}

}  // namespace kseries::gate
