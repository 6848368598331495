// vramplan-cli: the estimator for scripts (SPEC §3, "Command line"). Bad input exits with
// status 2 and one line on stderr naming the file, the field and the problem.
// main() and the options are here; the commands are in cli_estimate.cpp, cli_catalog.cpp,
// cli_calibrate.cpp, cli_advise.cpp and cli_runreport.cpp.

#include "cli_advise.h"
#include "cli_import.h"
#include "cli_common.h"

#include "advice/serving_advice.h"
#include "formats/scenario_json.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

namespace vramplan::cli_internal {
namespace {

constexpr int exitBadInput = 2;
constexpr std::size_t maxFileBytes = 64u << 20;

const char *usage =
    "usage: vramplan-cli COMMAND ...\n"
    "  estimate FILE|- [--format json|table] [--units gib|gb]   estimate JSON (or a table)\n"
    "  estimate --default [--format table]                      the planner's default scenario\n"
    "  params CONFIG.json                                        parameter counts of a HF config\n"
    "  sweep FILE --vary KEY=FROM:TO[:STEP]                      CSV, one row per point\n"
    "  max-batch FILE                                            largest micro-batch that fits\n"
    "  max-sequence FILE                                         longest sequence that fits\n"
    "  min-gpus FILE                                             fewest GPUs that fit\n"
    "  advise FILE [--format json|table] [--mfu X] [--no-hardware]\n"
    "                                       what to change so it fits: ranked complete scenarios,\n"
    "                                       each with its peak and relative step time\n"
    "  advise FILE [--requests N] [--tokens L] [--format json|table] [--no-hardware]\n"
    "                                       (inference with a serving section) the cheapest GPU,\n"
    "                                       TP and quantisation serving N requests of L tokens\n"
    "  calibrate FILE --metric allocated|reserved|device --measured SIZE\n"
    "                                       the scenario fitted to a measured peak (SIZE: 17.2GB,\n"
    "                                       16GiB or bytes), as scenario JSON\n"
    "  run-report FILE... [--scenario FILE] [--device N] [--format json|table]\n"
    "                                       a measured run (torch memory snapshot, MemTracker or\n"
    "                                       memory_stats JSON, nvidia-smi CSV), beside the plan\n"
    "  import FILE... [--model PRESET|CONFIG|DIR] [--gpus N] [--gpu PRESET] [--explain]\n"
    "                                       a DeepSpeed, HF/TRL, Axolotl, LLaMA-Factory,\n"
    "                                       torchtune, LitGPT, Accelerate or torchtitan config,\n"
    "                                       a Megatron-LM, ms-swift or verl launch script, as a\n"
    "                                       scenario\n"
    "                                       (--explain: each field's origin)\n"
    "  export FILE --to deepspeed|axolotl|llamafactory|torchtune|megatron|accelerate|trl|\n"
    "                   verl|torchtitan|swift\n"
    "                                       the scenario in that tool's own format\n"
    "  presets | gpus                                            list the built-in catalog\n"
    "  --help | --version                                        this usage, or the version\n";

} // namespace

[[noreturn]] void fail(const std::string &where, const std::string &problem)
{
    // One printable line, whatever the file held.
    std::cerr << printableLine(where.empty() ? problem : where + ": " + problem, 1000) << '\n';
    std::exit(exitBadInput);
}

std::string readInput(const std::string &path)
{
    std::string text;
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), {});
    } else {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            fail(path, "is a directory, not a scenario file");
        std::ifstream in(path, std::ios::binary);
        if (!in)
            fail(path, "cannot be opened");
        in.seekg(0, std::ios::end);
        const auto size = in.tellg();
        if (size < 0)
            fail(path, "cannot be read (not a regular file?)");
        if (static_cast<std::size_t>(size) > maxFileBytes)
            fail(path, "is larger than 64 MiB; not a scenario");
        in.seekg(0);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    if (text.size() > maxFileBytes)
        fail(path == "-" ? "<stdin>" : path, "is larger than 64 MiB; not a scenario");
    return text;
}

Scenario loadScenario(const std::string &path)
{
    auto parsed = scenarioFromText(readInput(path));
    if (!parsed)
        fail(path == "-" ? "<stdin>" : path, parsed.error);
    return *parsed.value;
}

namespace {

// A whole number in [1, max] for an option, or exit 2 naming the option.
int64_t countOption(const std::string &name, const std::string &text, int64_t max)
{
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || errno != 0 || v < 1 || v > max)
        fail("vramplan-cli", name + ": must be a whole number from 1 to " + std::to_string(max) +
                                 ", got '" + printableLine(text, 40) + "'");
    return v;
}

// --device N: the CUDA device of a run's files, 0 to 1023.
int deviceOption(const std::string &text)
{
    char *end = nullptr;
    errno = 0;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || v < 0 || v > 1023)
        fail("vramplan-cli", "--device: must be a whole number from 0 to 1023, got '" +
                                 printableLine(text, 40) + "'");
    return int(v);
}

Options parseOptions(int argc, char **argv)
{
    Options o;
    const bool runReport = std::string(argv[1]) == "run-report";
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char *name) {
            if (i + 1 >= argc)
                fail("vramplan-cli", std::string(name) + " needs a value");
            return std::string(argv[++i]);
        };
        if (arg == "--mfu") {
            const std::string text = value("--mfu");
            char *end = nullptr;
            o.mfu = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !(o.mfu > 0) || o.mfu > 1)
                fail("vramplan-cli", "--mfu: must be a number above 0 and at most 1, got '" +
                                         printableLine(text, 40) + "'");
        } else if (arg == "--requests") {
            // serving_json.cpp's bounds: max_num_seqs up to 2^20, lengths up to 2^30.
            o.requests = countOption("--requests", value("--requests"), int64_t(1) << 20);
        } else if (arg == "--tokens") {
            o.tokens = countOption("--tokens", value("--tokens"), int64_t(1) << 30);
        } else if ((arg == "--scenario" || arg == "--device") && runReport) {
            // Only run-report's: the other commands refuse them as unknown, as before.
            const std::string text = value(arg.c_str());
            if (arg == "--scenario")
                o.scenario = text;
            else
                o.device = deviceOption(text);
        } else if (arg == "--no-hardware") {
            o.hardware = false;
        } else if (arg == "--format")
            o.format = value("--format");
        else if (arg.rfind("--format=", 0) == 0)
            o.format = arg.substr(9);
        else if (arg == "--units")
            o.units = value("--units");
        else if (arg == "--vary")
            o.vary = value("--vary");
        else if (arg.rfind("--vary=", 0) == 0)
            o.vary = arg.substr(7);
        else if (arg == "--metric")
            o.metric = value("--metric");
        else if (arg == "--measured")
            o.measured = value("--measured");
        else if (arg == "--default")
            o.useDefault = true;
        else if (arg.size() > 1 && arg[0] == '-' && arg != "-")
            fail("vramplan-cli", "unknown option " + arg + "\n" + usage);
        else
            o.positional.push_back(arg);
    }
    if (o.format != "json" && o.format != "table")
        fail("vramplan-cli", "--format must be json or table, got " + o.format);
    if (o.units != "gib" && o.units != "gb")
        fail("vramplan-cli", "--units must be gib or gb, got " + o.units);
    return o;
}

} // namespace

std::string oneFile(const Options &o, const char *command)
{
    if (o.positional.size() != 1)
        fail("vramplan-cli", std::string(command) + " takes one FILE (or - for stdin)");
    return o.positional.front();
}

} // namespace vramplan::cli_internal

int main(int argc, char **argv)
{
    using namespace vramplan;
    using namespace vramplan::cli_internal;
    if (argc < 2) {
        std::cerr << usage;
        return exitBadInput;
    }
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << usage;
        return 0;
    }
    if (command == "--version") {
        std::cout << "vramplan-cli " VRAMPLAN_VERSION "\n";
        return 0;
    }
    try {
        if (command == "import") // its own options (cli_import.cpp)
            return commandImport(argc, argv);
        if (command == "export") // its own options (cli_export.cpp)
            return commandExport(argc, argv);
        const Options o = parseOptions(argc, argv);
        if (command == "estimate")
            return commandEstimate(o);
        if (command == "params")
            return commandParams(o);
        if (command == "sweep")
            return commandSweep(o);
        if (command == "max-batch" || command == "max-sequence" || command == "min-gpus")
            return commandSolver(o, command);
        if (command == "calibrate")
            return commandCalibrate(o);
        if (command == "advise") {
            if (o.format != "json" && o.format != "table")
                fail("vramplan-cli", "--format: must be json or table, got '" +
                                         printableLine(o.format, 40) + "'");
            const std::string path = oneFile(o, "advise");
            const Scenario s = loadScenario(path);
            if (isServingScenario(s))
                return commandAdviseServing(s, o.format, o.requests, o.tokens, o.hardware);
            if (o.requests > 0 || o.tokens > 0)
                fail(path == "-" ? "<stdin>" : path,
                     "--requests and --tokens need an inference scenario with a serving section "
                     "(training.mode inference, serving)");
            return commandAdvise(s, o.format, o.mfu, o.hardware);
        }
        if (command == "presets" || command == "gpus")
            return commandList(command);
        if (command == "run-report")
            return commandRunReport(o);
    } catch (const std::exception &e) {
        fail("vramplan-cli", std::string("internal error: ") + e.what());
    }
    std::cerr << "vramplan-cli: unknown command '" << command << "'\n" << usage;
    return exitBadInput;
}
