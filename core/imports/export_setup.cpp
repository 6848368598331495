// exportTrainingSetup (export_setup.h): the format names and suffixes, which writer runs, and
// the notes repeated as comments at the top of the formats that have comments.

#include "imports/export_setup.h"

#include "imports/export_setup_internal.h"

#include "formats/scenario_json.h"

namespace vramplan {
namespace {

struct FormatName
{
    ExportFormat format;
    const char *name;
    const char *suffix;
    bool comments; // the format has comments: the notes are written at its top too
};

// DeepSpeed's JSON has no comments; torchtune's overrides and Megatron's flags are pasted into
// a command line, where a comment line would end it.
constexpr FormatName formats[] = {
    {ExportFormat::DeepSpeed, "deepspeed", ".json", false},
    {ExportFormat::Axolotl, "axolotl", ".yaml", true},
    {ExportFormat::LlamaFactory, "llamafactory", ".yaml", true},
    {ExportFormat::Torchtune, "torchtune", ".txt", false},
    {ExportFormat::Megatron, "megatron", ".sh", false},
    {ExportFormat::Accelerate, "accelerate", ".yaml", true},
    {ExportFormat::Trl, "trl", ".yaml", true},
    {ExportFormat::Verl, "verl", ".sh", true},
    {ExportFormat::Torchtitan, "torchtitan", ".toml", true},
    {ExportFormat::Swift, "swift", ".sh", true},
};

const FormatName &entry(ExportFormat format)
{
    for (const auto &f : formats)
        if (f.format == format)
            return f;
    return formats[0];
}

ExportResult write(const exports::Facts &f, ExportFormat format)
{
    switch (format) {
    case ExportFormat::DeepSpeed:
        return exports::deepspeed(f);
    case ExportFormat::Axolotl:
        return exports::axolotl(f);
    case ExportFormat::LlamaFactory:
        return exports::llamaFactory(f);
    case ExportFormat::Torchtune:
        return exports::torchtune(f);
    case ExportFormat::Megatron:
        return exports::megatron(f);
    case ExportFormat::Accelerate:
        return exports::accelerate(f);
    case ExportFormat::Trl:
        return exports::trl(f);
    case ExportFormat::Verl:
        return exports::verl(f);
    case ExportFormat::Torchtitan:
        return exports::torchtitan(f);
    case ExportFormat::Swift:
        return exports::swift(f);
    }
    throw exports::ExportRefusal{"export: unknown format"};
}

} // namespace

std::optional<ExportFormat> exportFormatFromName(std::string_view name)
{
    for (const auto &f : formats)
        if (name == f.name)
            return f.format;
    return std::nullopt;
}

std::vector<std::string> exportFormatNames()
{
    std::vector<std::string> out;
    for (const auto &f : formats)
        out.emplace_back(f.name);
    return out;
}

std::string exportFileSuffix(ExportFormat format)
{
    return entry(format).suffix;
}

Parsed<ExportResult> exportTrainingSetup(const Scenario &scenario, ExportFormat format)
{
    if (scenario.training.mode != Mode::Train)
        return Parsed<ExportResult>::fail("training.mode: inference is not a training setup; "
                                          "nothing to export");
    exports::Facts f{scenarioToJson(scenario)};
    ExportResult r;
    try {
        r = write(f, format);
    } catch (const exports::ExportRefusal &refusal) {
        return Parsed<ExportResult>::fail(refusal.message);
    }
    if (entry(format).comments && !r.notes.empty()) {
        // What the file cannot say, said in it, above the keys (a shell script keeps its #! line
        // first).
        std::string head, body = r.text;
        if (body.rfind("#!", 0) == 0) {
            const std::size_t end = body.find('\n') + 1;
            head = body.substr(0, end);
            body.erase(0, end);
        }
        head += "# Not expressed by this file (vramplan-cli export notes):\n";
        for (const auto &note : r.notes)
            head += "#   " + note + "\n";
        r.text = head + body;
    }
    return Parsed<ExportResult>::ok(std::move(r));
}

} // namespace vramplan
