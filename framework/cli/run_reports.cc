#include "cli/run_reports.h"

#include <iostream>

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

}  // namespace

void add_run_report_options(po::options_description& options) {
  options.add_options()("html", po::value<std::string>(),
                        "also write the HTML report here (- for stdout)")(
      "kcidb", po::value<std::string>(),
      "also write the KCIDB JSON (schema v5) here (- for stdout)");
}

void write_html(const report::RunRecord& run, const std::string& file) {
  const fs::path page_dir = file == "-" ? run.dir : fs::absolute(file).parent_path();
  write_to(file, report::render_html(run, {page_dir}));
}

void write_kcidb(const report::RunRecord& run, const std::string& file) {
  write_to(file,
           report::render_kcidb(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
               "\n");
}

// The run's files are read, and a value of the wrong type in one named,
// when it is loaded (report/run_record.h): the renderers read only types.
void write_run_reports(const fs::path& run_dir, const po::variables_map& vm) {
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

}  // namespace kseries::cli
