#pragma once
// The HTML page and the KCIDB file of a run, drawn from what the run left
// in its directory (report/run_record.h): `boot` and `gate` always write
// report.html and kcidb.json there, and --html FILE / --kcidb FILE when
// asked; `kseries report` draws them again for an earlier run.

#include <filesystem>
#include <string>

#include <boost/program_options.hpp>

#include "report/run_record.h"

namespace kseries::cli {

// --html and --kcidb.
void add_run_report_options(boost::program_options::options_description& options);

// Writes the page to FILE ("-": stdout), its links relative to where it lands.
void write_html(const report::RunRecord& run, const std::string& file);
void write_kcidb(const report::RunRecord& run, const std::string& file);

// Both into RUN_DIR, and where --html / --kcidb say.
void write_run_reports(const std::filesystem::path& run_dir,
                       const boost::program_options::variables_map& vm);

}  // namespace kseries::cli
