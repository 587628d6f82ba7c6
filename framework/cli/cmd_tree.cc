// kseries tree: import (once) and name the base commit and its release.
#include <iostream>

#include "cli/commands.h"
#include "git/tree_import.h"

namespace kseries::cli {

int run_tree(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries tree options");
  options.add(base_options());
  po::variables_map vm;
  if (!parse_command_line("tree", "[--tarball FILE | --tree DIR [--base REV]]", args, options, vm,
                          context)) {
    return 0;
  }
  const Base base = resolve_base(context, vm);
  // The release: the top Makefile's VERSION.PATCHLEVEL.SUBLEVEL and, for
  // an imported tarball, the Debian package that held it (both stored with
  // the base when it was imported).
  const auto release = git::base_release(context.store(), base.commit);
  std::cout << git::to_hex(base.commit) << " " << base.label << "\n"
            << "release: " << release.describe() << "\n";
  progress("base " + git::to_hex(base.commit) + " (" + base.label + ", " + release.describe() +
           ") in " + context.store().path().string());
  return 0;
}

}  // namespace kseries::cli
