// kseries: validates a Linux kernel patch series. See README.md.
#include "cli/commands.h"

int main(int argc, char** argv) { return kseries::cli::main(argc, argv); }
