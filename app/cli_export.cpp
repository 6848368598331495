// `vramplan-cli export FILE --to FORMAT` (deepspeed, axolotl, llamafactory, torchtune, megatron,
// accelerate, trl, verl, torchtitan, swift): a scenario written back in a tool's own format
// (issue 24; core/imports/export_setup.h), on stdout; what the format cannot hold goes to stderr
// as notes (and into the file as comments where it has them). Bad input: exit 2 and one line
// naming the file or the flag.

#include "cli_import.h"

#include "cli_common.h"

#include "formats/scenario_json.h"
#include "imports/export_setup.h"

#include <iostream>
#include <string>

namespace vramplan::cli_internal {
namespace {

const char *exportUsage = "usage: vramplan-cli export FILE --to deepspeed|axolotl|llamafactory|"
                          "torchtune|megatron|accelerate|trl|verl|torchtitan|swift";

// "a, b, ... or z": the formats, for the refusal of another --to.
std::string formatList()
{
    const auto names = exportFormatNames();
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return out;
}

} // namespace

int commandExport(int argc, char **argv)
{
    std::string file, to;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--to") {
            if (i + 1 >= argc)
                fail("vramplan-cli", "--to needs a value; " + std::string(exportUsage));
            to = argv[++i];
        } else if (arg.rfind("--", 0) == 0) {
            fail("vramplan-cli", "export: unknown option '" + printableLine(arg, 40) + "'; " +
                                     exportUsage);
        } else if (!file.empty()) {
            fail("vramplan-cli", "export takes one FILE; " + std::string(exportUsage));
        } else {
            file = arg;
        }
    }
    if (file.empty())
        fail("vramplan-cli", "export takes one FILE; " + std::string(exportUsage));
    if (to.empty())
        fail("vramplan-cli", "export: --to is missing; " + std::string(exportUsage));
    const auto format = exportFormatFromName(to);
    if (!format)
        fail("--to", "'" + printableLine(to, 40) + "' is not " + formatList());
    const Scenario scenario = loadScenario(file);
    const auto result = exportTrainingSetup(scenario, *format);
    if (!result)
        fail(file == "-" ? "<stdin>" : file, result.error);
    std::cout << result.value->text;
    for (const auto &note : result.value->notes)
        std::cerr << "note: " << note << '\n';
    return 0;
}

} // namespace vramplan::cli_internal
