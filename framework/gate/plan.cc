#include "gate/plan.h"

#include "gate/stage.h"
#include "gate/stages.h"

namespace kseries::gate {

std::vector<std::string> GatePlan::names() const {
  std::vector<std::string> names;
  for (const auto& cell : cells) {
    names.push_back(cell.name());
  }
  return names;
}

const PlannedCell* GatePlan::find(std::string_view name) const {
  for (const auto& cell : cells) {
    if (cell.name() == name) {
      return &cell;
    }
  }
  return nullptr;
}

GatePlan make_gate_plan(const ResolvedMatrix& matrix) {
  GatePlan plan;
  for (const Stage* stage : gate_stages()) {
    for (auto& cell : stage->plan(matrix)) {
      cell.stage = stage;
      plan.cells.push_back(std::move(cell));
    }
  }
  return plan;
}

}  // namespace kseries::gate
