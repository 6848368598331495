// vramplan-cli: the estimator for scripts (SPEC §3, "Command line"). Bad input exits with
// status 2 and one line on stderr naming the file, the field and the problem.

#include "calibration.h"
#include "cli_advise.h"
#include "catalog.h"
#include "enum_names.h"
#include "estimate.h"
#include "estimate_json.h"
#include "hf_config.h"
#include "model_weights.h"
#include "numeric_fields.h"
#include "serving_advice.h"
#include "scenario_json.h"
#include "solvers.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace vramplan;

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
    "  presets | gpus                                            list the built-in catalog\n"
    "  --help | --version                                        this usage, or the version\n";

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

Scenario defaultScenario()
{
    auto parsed = scenarioFromText(Catalog::builtin().defaultScenarioText());
    if (!parsed)
        fail("resources/scenarios/default.vramplan.json", parsed.error);
    return *parsed.value;
}

struct Options
{
    std::vector<std::string> positional;
    std::string format = "json";
    std::string units = "gib";
    std::string vary;
    std::string metric, measured;
    bool useDefault = false;
    double mfu = 0.40;     // advise: the step-time model's utilisation
    bool hardware = true;  // advise: also more or larger GPUs
    int64_t requests = 0;  // advise on a serving scenario: concurrent requests (0: its own)
    int64_t tokens = 0;    // advise on a serving scenario: tokens per request (0: its own)
};

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

Options parseOptions(int argc, char **argv)
{
    Options o;
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

std::string oneFile(const Options &o, const char *command)
{
    if (o.positional.size() != 1)
        fail("vramplan-cli", std::string(command) + " takes one FILE (or - for stdin)");
    return o.positional.front();
}

int commandEstimate(const Options &o)
{
    const Scenario s = o.useDefault && o.positional.empty() ? defaultScenario()
                                                            : loadScenario(oneFile(o, "estimate"));
    const Estimate e = estimate(s);
    if (o.format == "table")
        std::cout << estimateTable(e, s, o.units == "gb" ? SizeUnit::GB : SizeUnit::GiB);
    else
        std::cout << estimateToJson(e, s).dump(2) << '\n';
    return 0;
}

int commandParams(const Options &o)
{
    const std::string path = oneFile(o, "params");
    const std::string name = path == "-" ? "<stdin>" : path;
    auto parsedJson = jsonFromText(readInput(path));
    if (!parsedJson)
        fail(name, parsedJson.error);
    const nlohmann::json &config = *parsedJson.value;
    auto fields = modelFieldsFromHfConfig(config, "config");
    if (!fields)
        fail(name, fields.error);
    nlohmann::json scenario = {{"format", "vramplan-scenario"}, {"model", *fields.value}};
    auto parsed = scenarioFromJson(scenario);
    if (!parsed)
        fail(name, parsed.error);
    const auto &m = parsed.value->model;
    const ParameterCounts c = countParameters(m);
    nlohmann::json out = {{"total", c.total},
                          {"embedding", c.embedding},
                          {"per_layer", c.perLayer},
                          {"layers", c.layers},
                          {"final_norm", c.finalNorm},
                          {"output_head", c.outputHead},
                          {"active_per_token", c.activePerToken},
                          // OpenAI's model cards count active parameters without the
                          // embedding table (a lookup, not a matmul).
                          {"active_per_token_without_embedding", c.activePerToken - c.embedding},
                          {"model", scenarioToJson(*parsed.value)["model"]}};
    if (m.isMoe()) {
        out["moe_layers"] = c.moeLayers;
        out["dense_layers"] = c.denseLayers;
        out["per_dense_layer"] = c.perDenseLayer;
    }
    // What the checkpoint stores beside the model's parameters (not in the total).
    const CheckpointExtras extras = checkpointExtras(m, hfFp8BlockSize(config));
    if (extras.total() > 0)
        out["checkpoint_extra"] = {{"mtp_layers", extras.mtp},
                                   {"buffers", extras.buffers},
                                   {"fp8_scales", extras.fp8Scales},
                                   {"total", c.total + extras.total()}};
    if (const std::string note = hfLeftOut(config); !note.empty())
        out["left_out"] = note;
    std::cout << out.dump(2) << '\n';
    return 0;
}

// "nothing fits, not even a micro-batch of 1 (over by 12.30 GiB on H100 80GB)".
std::string nothingFits(const Scenario &base, const std::string &command)
{
    Scenario s = base;
    std::string what;
    if (command == "max-batch") {
        s.training.microBatchSize = 1;
        what = "not even a micro-batch of 1";
    } else if (command == "max-sequence") {
        s.training.sequenceLength = 256;
        what = "not even a sequence of 256 tokens";
    } else {
        const auto &p = base.parallelism;
        const int64_t unit = p.tensorParallel * p.pipelineParallel * p.contextParallel *
                             std::max<int64_t>(1, p.expertParallel);
        s.parallelism.gpus = unit * ((int64_t(1) << 20) / unit);
        what = "up to " + std::to_string(s.parallelism.gpus) + " GPUs";
        if (!checkScenario(s).empty())
            return "nothing fits " + what + " in this layout";
    }
    const Estimate e = estimate(s);
    return "nothing fits, " + what + " (over by " + formatBytes(-e.headroomBytes) + " on " +
           s.gpu.name + ")";
}

int commandSweep(const Options &o)
{
    const std::string path = oneFile(o, "sweep");
    Scenario base = loadScenario(path);
    if (o.vary.empty())
        fail("vramplan-cli", "sweep needs --vary KEY=FROM:TO[:STEP]");
    const auto eq = o.vary.find('=');
    const std::string key = o.vary.substr(0, eq);
    const NumericField *field = findNumericField(key);
    if (!field)
        fail("--vary",
             "'" + key + "' is not a numeric scenario field (one of: " + numericFieldPaths() + ")");
    if (eq == std::string::npos)
        fail("--vary", "expected KEY=FROM:TO[:STEP], got " + o.vary);
    std::vector<double> parts;
    std::stringstream range(o.vary.substr(eq + 1));
    for (std::string piece; std::getline(range, piece, ':');) {
        char *end = nullptr;
        const double v = std::strtod(piece.c_str(), &end);
        if (piece.empty() || *end != '\0' || !std::isfinite(v))
            fail("--vary", "'" + piece + "' is not a number in " + o.vary);
        parts.push_back(v);
    }
    if (parts.size() < 2 || parts.size() > 3)
        fail("--vary", "expected FROM:TO or FROM:TO:STEP, got " + o.vary.substr(eq + 1));
    const double from = parts[0], to = parts[1], step = parts.size() == 3 ? parts[2] : 1.0;
    if (!(step > 0))
        fail("--vary", "STEP must be > 0");
    if (to < from)
        fail("--vary", "TO must not be below FROM");
    if ((to - from) / step > 1.0e6)
        fail("--vary", "more than 1,000,000 points; use a larger STEP");

    std::cout << "value,allocated_bytes,reserved_bytes,device_bytes,fits,peak_phase";
    for (int i = 0; i < componentCount; ++i)
        std::cout << ',' << componentKey(static_cast<Component>(i)) << "_bytes";
    std::cout << ",error\n";
    const int64_t points = static_cast<int64_t>(std::floor((to - from) / step + 1e-9)) + 1;
    char number[64];
    for (int64_t i = 0; i < points; ++i) {
        const double value = from + double(i) * step;
        Scenario s = base;
        std::snprintf(number, sizeof number, "%.10g", value);
        const std::string error = setNumericField(s, *field, value);
        if (!error.empty()) {
            std::cout << number << ",,,,,";
            for (int c = 0; c < componentCount; ++c)
                std::cout << ',';
            std::string quoted = error;
            for (char &ch : quoted)
                if (ch == '"')
                    ch = '\'';
            std::cout << ",\"" << quoted << "\"\n";
            continue;
        }
        const Estimate e = estimate(s);
        std::cout << number << ',' << std::llround(e.peak.allocated) << ','
                  << std::llround(e.peak.reserved) << ',' << std::llround(e.peak.device) << ','
                  << (e.fits ? "true" : "false") << ',' << phaseKey(e.peak.phase);
        for (int c = 0; c < componentCount; ++c)
            std::cout << ',' << std::llround(e.perGpu[c]);
        std::cout << ",\n";
    }
    return 0;
}

int commandList(const std::string &what)
{
    const auto &catalog = Catalog::builtin();
    if (what == "presets") {
        for (const auto &p : catalog.presets()) {
            auto fields = modelFieldsFromHfConfig(p.hfConfig, p.id);
            nlohmann::json scenario = {{"format", "vramplan-scenario"},
                                       {"model", {{"preset", p.id}}}};
            auto parsed = scenarioFromJson(scenario);
            const int64_t total = parsed ? countParameters(parsed.value->model).total : 0;
            std::printf("%-26s %-32s %8.2f B\n", p.id.c_str(), p.name.c_str(), double(total) / 1e9);
        }
    } else {
        for (const auto &g : catalog.gpus())
            std::printf("%-20s %-34s %9.0f MiB  %s\n", g.id.c_str(), g.name.c_str(), g.memoryMiB,
                        g.architecture.c_str());
    }
    return 0;
}

// "17.2GB", "16 GiB", "512MiB" or a plain number of bytes.
double parseSize(const std::string &text)
{
    const char *begin = text.c_str();
    char *end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(number) || number <= 0)
        fail("--measured", "expected a size such as 17.2GB, 16GiB or 1234567890, got '" + text +
                               "'");
    std::string unit(end);
    unit.erase(0, unit.find_first_not_of(' '));
    for (char &ch : unit)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    static const std::pair<const char *, double> units[] = {
        {"", 1.0},          {"b", 1.0},
        {"kb", 1e3},        {"mb", 1e6},
        {"gb", 1e9},        {"tb", 1e12},
        {"kib", 1024.0},    {"mib", 1048576.0},
        {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
    for (const auto &[name, scale] : units)
        if (unit == name)
            return number * scale;
    fail("--measured", "unknown unit '" + unit + "' (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
}

int commandCalibrate(const Options &o)
{
    Scenario s = loadScenario(oneFile(o, "calibrate"));
    const auto metric = fromString<MemoryMetric>(o.metric);
    if (!metric)
        fail("--metric", "must be allocated, reserved or device, got '" + o.metric + "'");
    if (o.measured.empty())
        fail("--measured", "is required (the peak your run measured)");
    const auto fitted = fitCalibration(s, *metric, parseSize(o.measured));
    if (!fitted)
        fail("calibrate", fitted.error);
    s.calibration = *fitted.value;
    std::cout << scenarioToJson(s).dump(2) << '\n';
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
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
        const Options o = parseOptions(argc, argv);
        if (command == "estimate")
            return commandEstimate(o);
        if (command == "params")
            return commandParams(o);
        if (command == "sweep")
            return commandSweep(o);
        if (command == "max-batch" || command == "max-sequence" || command == "min-gpus") {
            const Scenario s = loadScenario(oneFile(o, command.c_str()));
            const int64_t answer = command == "max-batch"      ? maxMicroBatchSize(s)
                                   : command == "max-sequence" ? maxSequenceLength(s)
                                                               : minGpuCount(s);
            if (answer > 0) {
                std::cout << answer << '\n';
                return 0;
            }
            // Nothing fits: say how far the smallest candidate is over, after the 0 that
            // scripts read.
            std::cout << "0: " << nothingFits(s, command) << '\n';
            return 0;
        }
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
    } catch (const std::exception &e) {
        fail("vramplan-cli", std::string("internal error: ") + e.what());
    }
    std::cerr << "vramplan-cli: unknown command '" << command << "'\n" << usage;
    return exitBadInput;
}
