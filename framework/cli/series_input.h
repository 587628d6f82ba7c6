#pragma once
// `--series` as every command takes it: a format-patch directory or mbox, a
// range or `b4 prep` branch of --tree, or a message-id fetched with b4 from
// --inbox. Whatever is not a path is written out once as a series directory
// under WORKDIR/inputs/ and handed on as that path, so the stages after
// intake see only directories.

#include <filesystem>
#include <optional>
#include <string>

#include "cli/context.h"
#include "series/series_spec.h"

namespace kseries::cli {

// --inbox URL and --b4-revision N, for the commands that take --series.
po::options_description series_input_options();

struct SeriesInput {
  SeriesSpec spec;
  std::filesystem::path path;  // what load_series() reads
  // The base the input itself names: a range's bottom, a b4 cover commit's
  // parent, a fetched series' base-commit: (nullopt for a plain path).
  std::optional<std::string> base;
};

// Throws Error(k_usage) for a range or branch without --tree, and as the
// writers (git/branch_series.h, series/b4_fetch.h) do.
SeriesInput resolve_series_input(Context& context, const po::variables_map& vm,
                                 const std::string& text);

// resolve_base(), with BASE (from the series input) in place of --base when
// that is not given: with --tree, any revision of it; without, a commit the
// work directory's repository has (else the imported tarball, as before).
Base resolve_base_for(Context& context, const po::variables_map& vm,
                      const std::optional<std::string>& base);

// --tree DIR --base COMMIT (the commit BASE resolved to), or --tarball FILE.
std::vector<std::string> base_arguments(const po::variables_map& vm, const Base& base);

// The command line options that reproduce this input elsewhere: "--series
// TEXT" and, for a message-id, "--inbox URL" (for reproduce.sh).
std::vector<std::string> series_input_arguments(const SeriesInput& input,
                                                const po::variables_map& vm);

}  // namespace kseries::cli
