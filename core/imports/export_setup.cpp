// exportTrainingSetup (export_setup.h): the format names and suffixes, and which writer runs.

#include "imports/export_setup.h"

#include "imports/export_setup_internal.h"

#include "formats/scenario_json.h"

namespace vramplan {

std::optional<ExportFormat> exportFormatFromName(std::string_view name)
{
    if (name == "deepspeed")
        return ExportFormat::DeepSpeed;
    if (name == "axolotl")
        return ExportFormat::Axolotl;
    if (name == "llamafactory")
        return ExportFormat::LlamaFactory;
    if (name == "torchtune")
        return ExportFormat::Torchtune;
    if (name == "megatron")
        return ExportFormat::Megatron;
    return std::nullopt;
}

std::vector<std::string> exportFormatNames()
{
    return {"deepspeed", "axolotl", "llamafactory", "torchtune", "megatron"};
}

std::string exportFileSuffix(ExportFormat format)
{
    switch (format) {
    case ExportFormat::DeepSpeed: return ".json";
    case ExportFormat::Axolotl:
    case ExportFormat::LlamaFactory: return ".yaml";
    case ExportFormat::Torchtune: return ".txt";
    case ExportFormat::Megatron: return ".sh";
    }
    return ".txt";
}

Parsed<ExportResult> exportTrainingSetup(const Scenario &scenario, ExportFormat format)
{
    if (scenario.training.mode != Mode::Train)
        return Parsed<ExportResult>::fail("training.mode: inference is not a training setup; "
                                          "nothing to export");
    exports::Facts f{scenarioToJson(scenario)};
    switch (format) {
    case ExportFormat::DeepSpeed: return Parsed<ExportResult>::ok(exports::deepspeed(f));
    case ExportFormat::Axolotl: return Parsed<ExportResult>::ok(exports::axolotl(f));
    case ExportFormat::LlamaFactory: return Parsed<ExportResult>::ok(exports::llamaFactory(f));
    case ExportFormat::Torchtune: return Parsed<ExportResult>::ok(exports::torchtune(f));
    case ExportFormat::Megatron: return Parsed<ExportResult>::ok(exports::megatron(f));
    }
    return Parsed<ExportResult>::fail("export: unknown format");
}

} // namespace vramplan
