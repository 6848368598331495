#pragma once
// `vramplan-cli import FILE... [--model PRESET|CONFIG|DIR] [--gpus N] [--gpu PRESET]
// [--explain]` (SPEC §3 "Command line", issue 24; core/imports/): its own options, so it is
// dispatched before the shared option parser.

namespace vramplan::cli_internal {

int commandImport(int argc, char **argv);

} // namespace vramplan::cli_internal
