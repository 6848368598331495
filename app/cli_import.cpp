// `vramplan-cli import`: a training setup written for another tool (a DeepSpeed JSON, Hugging
// Face/TRL arguments, Axolotl, LLaMA-Factory, torchtune, LitGPT or Accelerate YAML, a torchtitan
// TOML, a Megatron-LM, ms-swift or verl launch script) as a scenario file
// on stdout, or with --explain every field's value and origin. Warnings and the keys not
// modelled go to stderr (the scenario alone on stdout); bad input exits 2 with one line naming
// the file and the line or key, or the flag that gives a missing fact.

#include "cli_import.h"

#include "cli_common.h"

#include "formats/scenario_json.h"
#include "imports/import_setup.h"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace vramplan::cli_internal {
namespace {

const char *importUsage =
    "usage: vramplan-cli import FILE... [--model PRESET|CONFIG|DIR] [--gpus N] [--gpu PRESET] "
    "[--explain]";

std::string valueText(const nlohmann::json &v)
{
    return v.is_string() ? v.get<std::string>()
                         : v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

int commandImport(int argc, char **argv)
{
    std::vector<std::string> files;
    ImportOptions options;
    bool explain = false;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&](const char *name) {
            if (i + 1 >= argc)
                fail("vramplan-cli", std::string(name) + " needs a value");
            return std::string(argv[++i]);
        };
        if (arg == "--model") {
            options.model = value("--model");
        } else if (arg == "--gpu") {
            options.gpu = value("--gpu");
        } else if (arg == "--gpus") {
            const std::string text = value("--gpus");
            char *end = nullptr;
            errno = 0;
            const long long n = std::strtoll(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || errno != 0 || n < 1 || n > 65536)
                fail("vramplan-cli", "--gpus: must be a whole number from 1 to 65536, got '" +
                                         printableLine(text, 40) + "'");
            options.gpus = n;
        } else if (arg == "--explain") {
            explain = true;
        } else if (arg.size() > 1 && arg[0] == '-') {
            fail("vramplan-cli", "unknown option " + arg + "; " + importUsage);
        } else {
            files.push_back(arg);
        }
    }
    if (files.empty())
        fail("vramplan-cli", std::string("import takes one or more FILEs; ") + importUsage);
    auto imported = importTrainingSetup(files, options);
    if (!imported)
        fail("", imported.error);
    const ImportResult &r = *imported.value;
    for (const auto &w : r.warnings)
        std::cerr << "warning: " << printableLine(w, 1000) << '\n';
    if (!explain) {
        if (!r.ignored.empty())
            std::cerr << "ignored (not modelled): " << r.ignored.size()
                      << " keys; --explain lists them\n";
        std::cout << r.scenarioJson.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << '\n';
        return 0;
    }
    std::cout << "formats:";
    for (std::size_t i = 0; i < r.formats.size(); ++i)
        std::cout << ' ' << r.formats[i];
    std::cout << '\n';
    for (const auto &f : r.fields)
        std::cout << f.path << " = " << printableLine(valueText(f.value), 200) << "    <- "
                  << printableLine(f.origin, 400) << '\n';
    for (const auto &w : r.warnings)
        std::cout << "warning: " << printableLine(w, 1000) << '\n';
    for (const auto &key : r.ignored)
        std::cout << "ignored: " << printableLine(key, 300) << '\n';
    return 0;
}

} // namespace vramplan::cli_internal
