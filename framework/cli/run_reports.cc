#include "cli/run_reports.h"

#include <iostream>

#include "core/error.h"
#include "report/html.h"
#include "report/kcidb.h"
#include "report/output.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

// As --junit and --json: atomically into a regular file, into a FIFO.
void write_to(const std::string& file, const std::string& text) {
  report::write_report(file, text);
}

// RENDER(RUN), a value of the wrong type in a cell's coverage.json named
// (a shard's, copied from CI: anyone may have edited it). The renderers
// read it as they go, so the file is found by rendering again with one
// cell's coverage at a time (on this error path only). gate.json and the
// cells' results.json are read, and named, when the run is loaded.
template <typename Render>
auto render_naming_the_file(const report::RunRecord& run, Render render) {
  try {
    return render(run);
  } catch (const nlohmann::json::exception& e) {
    for (std::size_t i = 0; i < run.cells.size(); ++i) {
      const auto& cell = run.cells[i];
      if (cell.coverage.is_null()) {
        continue;
      }
      report::RunRecord alone = run;
      for (std::size_t j = 0; j < alone.cells.size(); ++j) {
        if (j != i) {
          alone.cells[j].coverage = nullptr;
        }
      }
      try {
        render(alone);
      } catch (const nlohmann::json::exception&) {
        throw usage_error((cell.dir / "coverage.json").string() + " (cell " + cell.series + ": " +
                          cell.cell + "): a value of the wrong type: " + e.what());
      }
    }
    throw usage_error(run.dir.string() +
                      ": a JSON file of the run holds a value of the wrong type: " + e.what());
  }
}

}  // namespace

void add_run_report_options(po::options_description& options) {
  options.add_options()("html", po::value<std::string>(),
                        "also write the HTML report here (- for stdout)")(
      "kcidb", po::value<std::string>(),
      "also write the KCIDB JSON (schema v5) here (- for stdout)");
}

void write_html(const report::RunRecord& run, const std::string& file) {
  const fs::path page_dir = file == "-" ? run.dir : fs::absolute(file).parent_path();
  write_to(file, render_naming_the_file(run, [&](const report::RunRecord& r) {
             return report::render_html(r, {page_dir});
           }));
}

void write_kcidb(const report::RunRecord& run, const std::string& file) {
  write_to(file, render_naming_the_file(run, [](const report::RunRecord& r) {
             return report::render_kcidb(r).dump(2, ' ', false,
                                                 nlohmann::json::error_handler_t::replace) +
                    "\n";
           }));
}

namespace {

void write_run_reports_of(const fs::path& run_dir, const po::variables_map& vm) {
  const auto run = report::load_run(run_dir);
  write_html(run, (run_dir / "report.html").string());
  write_kcidb(run, (run_dir / "kcidb.json").string());
  if (vm.count("html")) {
    write_html(run, vm["html"].as<std::string>());
  }
  if (vm.count("kcidb")) {
    write_kcidb(run, vm["kcidb"].as<std::string>());
  }
}

}  // namespace

void write_run_reports(const fs::path& run_dir, const po::variables_map& vm) {
  try {
    write_run_reports_of(run_dir, vm);
  } catch (const nlohmann::json::exception& e) {
    // The renderers read the cells' coverage.json: a wrong type there.
    throw usage_error(run_dir.string() +
                      ": a JSON file of the run holds a value of the wrong type: " + e.what());
  }
}

}  // namespace kseries::cli
