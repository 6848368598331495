// The commands that estimate: `estimate`, `params` (a Hugging Face config's parameter counts),
// `sweep` (one field over a range, as CSV), and the solvers max-batch, max-sequence, min-gpus.

#include "cli_common.h"

#include "advice/solvers.h"
#include "catalog.h"
#include "estimate.h"
#include "formats/checkpoint_folder.h"
#include "formats/enum_names.h"
#include "formats/estimate_json.h"
#include "formats/numeric_fields.h"
#include "formats/scenario_json.h"
#include "model/hf_config.h"
#include "model/model_weights.h"

#include <cmath>
#include <filesystem>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace vramplan::cli_internal {
namespace {

Scenario defaultScenario()
{
    auto parsed = scenarioFromText(Catalog::builtin().defaultScenarioText());
    if (!parsed)
        fail("resources/scenarios/default.vramplan.json", parsed.error);
    return *parsed.value;
}

} // namespace

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
    // A checkpoint folder: its config.json, and its tensors counted from the safetensors
    // headers (or its index's totals).
    std::error_code ec;
    std::optional<Checkpoint> checkpoint;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
        auto read = readCheckpointFolder(path);
        if (!read)
            fail("", read.error);
        checkpoint = std::move(*read.value);
    }
    nlohmann::json configJson;
    if (!checkpoint) {
        auto parsedJson = hfJsonFromText(readInput(path));
        if (!parsedJson)
            fail(name, parsedJson.error);
        configJson = std::move(*parsedJson.value);
    }
    const nlohmann::json &config = checkpoint ? checkpoint->config : configJson;
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
    if (c.vision > 0)
        out["vision_tower"] = c.vision;
    if (m.hasLayerPlan()) {
        // Each kind of layer (mixer and MLP) with its count and the parameters of one.
        nlohmann::json kinds = nlohmann::json::array();
        for (const auto &k : c.kinds)
            kinds.push_back({{"mixer", toString(k.spec.mixer)},
                             {"mlp", toString(k.spec.mlp)},
                             {"layers", k.layers},
                             {"per_layer", k.perLayer}});
        out["layer_kinds"] = kinds;
    }
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
    if (m.family == Family::Generic)
        out["generic"] = "model_type '" + m.hfModelType +
                         "' is not one vramplan knows: counted as a generic decoder from the "
                         "config's standard fields";
    if (checkpoint) {
        nlohmann::json held = {{"total", checkpoint->total},
                               {"bytes", checkpoint->bytes},
                               {"exact", checkpoint->exact},
                               {"source", checkpoint->source},
                               {"tensors", checkpoint->tensors.size()},
                               {"agrees_with_config",
                                checkpoint->total == c.total ||
                                    checkpoint->total == c.total + extras.total()}};
        if (checkpoint->exact)
            held["parts"] = checkpointPartsJson(checkpoint->parts);
        out["checkpoint"] = held;
    }
    std::cout << out.dump(2) << '\n';
    return 0;
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

namespace {

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

} // namespace

int commandSolver(const Options &o, const std::string &command)
{
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

} // namespace vramplan::cli_internal
