#include "gate/runner.h"

#include <algorithm>
#include <exception>

#include "core/elapsed.h"
#include "core/error.h"
#include "gate/apply_stage.h"
#include "gate/gate.h"
#include "gate/per_patch.h"
#include "gate/reproducer.h"
#include "gate/series_name.h"
#include "kernel/target.h"
#include "oracle/sha256.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

using results::CellResult;
using results::Outcome;

namespace {

// Every file below DIR (sorted, by path relative to it) and its bytes: a
// case's guest script, modules and config are part of its cell's work.
void add_tree(std::string& text, const fs::path& dir) {
  if (!fs::is_directory(dir)) {
    return;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    text += "file " + fs::relative(file, dir).string() + "\n" +
            oracle::sha256_hex(read_file(file)) + "\n";
  }
}

CellResult error_cell(const std::string& series, const std::string& cell, const Error& e) {
  return {series, cell, Outcome::k_error, e.what(), e.what(), 0, {}};
}

// Any other exception out of a stage is a bug in kseries, not in the series:
// that cell's error, said so, and the gate goes on with the rest (one such
// bug once ended a four-hour gate at its second revision).
Error internal_error(const std::exception& e) {
  return Error(ErrorKind::k_infrastructure,
               std::string("kseries internal error (a bug in kseries, not in the series; the "
                           "rest of the gate went on): ") +
                   e.what());
}

}  // namespace

fs::path SeriesInput::cell_dir(const std::string& cell) const {
  return request.run_dir / "cells" / file_safe(name + "-" + cell);
}

std::vector<CellResult> run_after_series_cell(const PlannedCell& planned,
                                              const AfterSeriesInput& input) {
  const auto start = SteadyClock::now();
  std::vector<CellResult> cells;
  try {
    cells = planned.stage->run_after(planned, input);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::k_interrupted) {
      throw;
    }
    for (const auto& series : input.series) {
      cells.push_back(error_cell(series.name, planned.name(), e));
    }
  } catch (const std::exception& e) {
    for (const auto& series : input.series) {
      cells.push_back(error_cell(series.name, planned.name(), internal_error(e)));
    }
  }
  for (auto& cell : cells) {
    cell.cell = planned.name();
    cell.seconds = seconds_since(start) / static_cast<double>(cells.size());
  }
  return cells;
}

Runner::Runner(const GateRequest& request, const GatePlan& plan, GateServices& services,
               results::CellStore& store, session::Status& status)
    : m_request(request),
      m_plan(plan),
      m_services(services),
      m_store(store),
      m_status(status),
      m_names(request.series.size()) {}

std::string Runner::run_series(const fs::path& dir, std::size_t index) {
  SeriesInput input{
      m_request, m_services, m_status, m_store, dir, index, unloaded_series_name(dir)};
  load_series(input);
  if (input.record) {
    // The series as it loaded: named, described for the reports.
    m_names[index] = input.name;
    m_identities[input.name] = input.identity;
    m_store.describe(std::move(*input.record));
    input.record.reset();
  }
  if (input.revision) {
    m_revisions.push_back(*input.revision);
  }
  for (const auto& planned : m_plan.cells) {
    if (planned.stage->placement() == Placement::k_per_series && !run_cell(planned, input)) {
      break;
    }
  }
  return input.name;
}

std::string Runner::series_name(std::size_t index) const {
  return index < m_names.size() && !m_names[index].empty()
             ? m_names[index]
             : unloaded_series_name(m_request.series.at(index));
}

const std::string& Runner::identity(const std::string& series) const {
  static const std::string none;
  const auto it = m_identities.find(series);
  return it == m_identities.end() ? none : it->second;
}

bool Runner::run_cell(const PlannedCell& planned, SeriesInput& input) {
  const Stage& stage = *planned.stage;
  const std::string name = planned.name();
  const bool here = !m_request.share || m_request.share->contains(name);
  const auto start = SteadyClock::now();
  CellResult cell;
  std::exception_ptr interrupted;
  try {
    if (!stage.needed_by_the_rest() && reuse(planned, input, here)) {
      return true;
    }
    cell = stage.run(planned, input);
  } catch (const Error& e) {
    cell = error_cell(input.name, name, e);
    if (e.kind() == ErrorKind::k_interrupted) {
      interrupted = std::current_exception();
      m_interrupted_in_a_cell = here;
    }
  } catch (const std::exception& e) {
    cell = error_cell(input.name, name, internal_error(e));
  }
  if (cell.status == Outcome::k_error) {
    // An error cell links what its stage left, however it ended.
    if (const fs::path dir = input.cell_dir(name); fs::is_directory(dir)) {
      cell.properties.emplace("run_dir", dir.string());
    }
  }
  // What every cell is: named by the runner, timed by the runner.
  cell.series = input.name;
  cell.cell = name;
  cell.seconds = seconds_since(start);
  m_time[stage.time_bucket()] += cell.seconds;
  const bool passed = cell.status == Outcome::k_pass;
  if (here) {
    record(planned, std::move(cell), input.index, input.work);
  }
  if (interrupted) {
    std::rethrow_exception(interrupted);
  }
  return passed || !stage.needed_by_the_rest();
}

// A cell finished before (--resume) is taken as it was when it was the
// same work (work_key); else it runs again. Another shard's cell runs there.
bool Runner::reuse(const PlannedCell& planned, SeriesInput& input, bool here) {
  const std::string name = planned.name();
  const auto work = planned.stage->work(planned, input);
  if (work) {
    input.work[name] = work_key(name, input.tip(), *work);
  }
  if (!here) {
    return true;
  }
  const CellResult* before = work ? m_store.previous(input.name, name) : nullptr;
  if (before) {
    const auto it = before->properties.find("work");
    if (it == before->properties.end() || it->second != input.work[name]) {
      m_status.progress("gate " + input.name + ": " + name +
                        ": not reused from the resumed run (its patches, base, target, "
                        "toolchain or testcase changed)");
      before = nullptr;
    }
  }
  if (!before) {
    return false;
  }
  m_status.progress("gate " + input.name + ": " + name + ": " +
                    results::outcome_name(before->status) + " (reused from the resumed run)");
  m_store.record(*before);
  m_store.count_reused();
  return true;
}

// What a cell's verdict depends on, as one hash: the tip commit (the
// series' patches and the base they apply onto), the target file and its
// fragments (the toolchain is the target's `compiler:`), the case's files,
// the cell's options, accel and clock (and under the memory clock every
// figure of its profile). --resume reused cells by series and cell name:
// after the patches changed to a build break, the resumed gate still said
// PASS.
std::string Runner::work_key(const std::string& cell, const git_oid& tip,
                             const WorkInput& work) const {
  std::string text = "cell " + cell + "\ntip " + git::to_hex(tip) + "\nbase " +
                     git::to_hex(m_request.base) + "\noptions " + work.options + "\naccel " +
                     std::to_string(static_cast<int>(m_request.accel)) + "\nclock " +
                     m_request.clock + "\n";
  if (m_request.clock == "memory") {
    // The profile's figures decide a memory-clock timing verdict.
    text += "memory " + memcost::settings_key(m_request.memory) + "\n";
  }
  if (work.target) {
    const auto loaded = kernel::load_target(m_request.matrix.configs, *work.target);
    text += "target " + oracle::sha256_hex(read_file(loaded.file)) + "\n";
    for (const auto& fragment : loaded.fragments) {
      text += "fragment " + fragment.filename().string() + " " +
              oracle::sha256_hex(read_file(fragment)) + "\n";
    }
  }
  if (work.test_case) {
    add_tree(text, m_request.matrix.testcases / *work.test_case);
    add_tree(text, m_request.matrix.testcases / "lib");
  }
  return oracle::sha256_hex(text);
}

void Runner::record(const PlannedCell& planned, CellResult cell, std::size_t index,
                    const std::map<std::string, std::string>& work) {
  if (const auto it = work.find(cell.cell); it != work.end()) {
    cell.properties["work"] = it->second;
  }
  if (!m_request.judged_by.empty()) {
    cell.properties.try_emplace("judged_by", m_request.judged_by);
  }
  m_status.progress("gate " + cell.series + ": " + cell.cell + ": " +
                    results::outcome_name(cell.status) +
                    (cell.summary.empty() ? "" : ": " + cell.summary.substr(0, 200)));
  const bool failed = cell.status == Outcome::k_fail || cell.status == Outcome::k_error;
  // A failing or erring cell's directory gets reproduce.sh (gate/reproducer.h);
  // a reused cell has its own, a gate not driven by the command line none.
  if (failed && !m_request.reproduce.series.empty() && !cell.properties.count("reproduce")) {
    const ReproduceContext context{m_request.reproduce, m_request.matrix, index, m_names};
    const auto commands = planned.stage->reproduce(planned, cell, context);
    if (!commands.empty()) {
      const fs::path dir =
          cell.properties.count("run_dir")
              ? fs::path(cell.properties.at("run_dir"))
              : m_request.run_dir / "cells" / file_safe(cell.series + "-" + cell.cell);
      cell.properties["reproduce"] =
          write_reproducer(dir, cell.series, cell.cell,
                           results::outcome_name(cell.status) + ": " + cell.summary, commands)
              .string();
    }
  }
  m_store.record(std::move(cell));
}

void Runner::run_after_series(const AfterSeriesInput& input) {
  for (const auto& planned : m_plan.cells) {
    if (planned.stage->placement() != Placement::k_after_series) {
      continue;
    }
    for (auto& cell : run_after_series_cell(planned, input)) {
      m_time[planned.stage->time_bucket()] += cell.seconds;
      const auto at = std::find(m_names.begin(), m_names.end(), cell.series);
      record(planned, std::move(cell), static_cast<std::size_t>(at - m_names.begin()), {});
    }
  }
}

}  // namespace kseries::gate
