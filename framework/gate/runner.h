#pragma once
// The gate's runner: each series through the plan's per-series cells, and
// the after-series cells once every series is in, with one wrapper around
// every cell whatever its stage (gate/stage.h): whether it runs here (the
// shard filter), is taken from the resumed run (its work key), or runs;
// its time; an Error it throws as an error cell; an interruption recorded
// and thrown on; recording; reproduce.sh for a cell that fails or errs.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gate/plan.h"
#include "gate/stage.h"
#include "results/gate_record.h"

namespace kseries::gate {

struct GateRequest;
struct GateServices;

// An after-series cell run once every series is in (a single gate's end,
// or the merge of its shards): one cell per series it judges; an Error
// (but an interruption) is an error cell of every series.
std::vector<results::CellResult> run_after_series_cell(const PlannedCell& planned,
                                                       const AfterSeriesInput& input);

class Runner {
 public:
  Runner(const GateRequest& request, const GatePlan& plan, GateServices& services,
         results::CellStore& store, session::Status& status);

  // The series in DIR (the INDEX-th of the request) through every
  // per-series cell; its cells go to the store as they finish. Throws
  // Error(k_interrupted) when interrupted (the running cell recorded).
  // Returns its name (the directory's, for one that does not load).
  std::string run_series(const std::filesystem::path& dir, std::size_t index);

  // The after-series cells (revision-regression), each series' recorded.
  void run_after_series(const AfterSeriesInput& input);

  // What the gate's time report says of the cells run so far, by
  // gate_time_stages().
  const std::map<std::string, double>& time() const { return m_time; }
  // Each series' revision as apply loaded it, in the gate's order.
  const std::vector<GatedRevision>& revisions() const { return m_revisions; }
  // The INDEX-th series' name: as apply loaded it, else its directory's.
  std::string series_name(std::size_t index) const;
  const std::string& identity(const std::string& series) const;
  bool interrupted_in_a_cell() const { return m_interrupted_in_a_cell; }

 private:
  // One cell through the wrapper; false when the series stops here.
  bool run_cell(const PlannedCell& planned, SeriesInput& input);
  bool reuse(const PlannedCell& planned, SeriesInput& input, bool here);
  std::string work_key(const std::string& cell, const git_oid& tip, const WorkInput& work) const;
  void record(const PlannedCell& planned, results::CellResult cell, std::size_t index,
              const std::map<std::string, std::string>& work);

  const GateRequest& m_request;
  const GatePlan& m_plan;
  GateServices& m_services;
  results::CellStore& m_store;
  session::Status& m_status;
  std::map<std::string, double> m_time;
  std::vector<GatedRevision> m_revisions;
  std::vector<std::string> m_names;                 // by the series' index in the request
  std::map<std::string, std::string> m_identities;  // series -> its identity
  bool m_interrupted_in_a_cell = false;
};

}  // namespace kseries::gate
