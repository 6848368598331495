#pragma once
// `vramplan-cli import FILE... [--model PRESET|CONFIG|DIR] [--gpus N] [--gpu PRESET]
// [--explain]` (SPEC §3 "Command line", issue 24; core/imports/): its own options, so it is
// dispatched before the shared option parser.

namespace vramplan::cli_internal {

int commandImport(int argc, char **argv);
// `vramplan-cli export FILE --to FORMAT` (cli_export.cpp): the scenario in a tool's own format.
int commandExport(int argc, char **argv);

} // namespace vramplan::cli_internal
