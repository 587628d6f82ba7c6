// kseries tree: import (once) and name the base commit.
#include <iostream>

#include "cli/commands.h"

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
  std::cout << git::to_hex(base.commit) << " " << base.label << "\n";
  progress("base " + git::to_hex(base.commit) + " (" + base.label + ") in " +
           context.store().path().string());
  return 0;
}

}  // namespace kseries::cli
