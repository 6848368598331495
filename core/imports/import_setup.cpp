// importTrainingSetup: which tool wrote each file, the importers in the order the tools apply
// them (the trainer's arguments, then the DeepSpeed config whose "auto" they fill), the model,
// the launcher's facts, and the scenario with the origin of every field.

#include "imports/import_setup.h"

#include "imports/config_document.h"
#include "imports/import_draft.h"
#include "imports/launch_command.h"

#include "catalog.h"
#include "formats/scenario_json.h"

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <cctype>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

namespace vramplan {

using namespace imports;

namespace {

constexpr std::uintmax_t maxFileBytes = 4u << 20; // a training config is a few kilobytes

std::string readFile(const std::string &path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw ImportError(path + ": is a directory, not a training config");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ImportError(path + ": cannot be opened");
    const auto size = fs::file_size(path, ec);
    if (ec)
        throw ImportError(path + ": cannot be read (not a regular file?)");
    if (size > maxFileBytes)
        throw ImportError(path + ": is larger than 4 MiB; not a training config");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

enum class Kind
{
    DeepSpeed,
    HfTrainer,
    Axolotl,
    LlamaFactory,
    Torchtune,
    Accelerate,
    Torchtitan,
    Litgpt,
    Megatron,
    MsSwift,
    Verl
};

const char *kindName(Kind k)
{
    switch (k) {
    case Kind::DeepSpeed: return "deepspeed";
    case Kind::HfTrainer: return "hf_trainer";
    case Kind::Axolotl: return "axolotl";
    case Kind::LlamaFactory: return "llamafactory";
    case Kind::Torchtune: return "torchtune";
    case Kind::Accelerate: return "accelerate";
    case Kind::Torchtitan: return "torchtitan";
    case Kind::Litgpt: return "litgpt";
    case Kind::Megatron: return "megatron";
    case Kind::MsSwift: return "ms_swift";
    case Kind::Verl: return "verl";
    }
    return "";
}

// Which tool wrote a file, by the keys only that tool writes.
Kind detect(const ConfigDoc &doc)
{
    const auto has = [&doc](const char *key) { return doc.root().contains(key); };
    if (has("zero_optimization") || has("train_micro_batch_size_per_gpu") ||
        has("train_batch_size") || has("zero_allow_untested_optimizer"))
        return Kind::DeepSpeed;
    if (has("distributed_type") || has("compute_environment"))
        return Kind::Accelerate;
    if (doc.find("model._component_") || doc.find("optimizer._component_"))
        return Kind::Torchtune;
    // LitGPT's config_hub: checkpoint_dir, and the batch under train: (litgpt/args.py TrainArgs).
    if (has("checkpoint_dir") || doc.find("train.micro_batch_size") ||
        doc.find("train.global_batch_size"))
        return Kind::Litgpt;
    if (has("base_model") || has("micro_batch_size") || has("sequence_len") || has("adapter"))
        return Kind::Axolotl;
    if (has("finetuning_type") || has("cutoff_len") || has("lora_target") ||
        (has("stage") && has("template")))
        return Kind::LlamaFactory;
    if (has("per_device_train_batch_size") || has("model_name_or_path") ||
        has("gradient_accumulation_steps") || has("output_dir"))
        return Kind::HfTrainer;
    if (doc.root().contains("bf16") || doc.root().contains("fp16"))
        if (doc.root().value("bf16", nlohmann::json()).is_object() ||
            doc.root().value("fp16", nlohmann::json()).is_object())
            return Kind::DeepSpeed;
    throw ImportError(doc.file() + ": not a training setup vramplan reads (a DeepSpeed JSON, "
                                   "Hugging Face/TRL arguments, Axolotl, LLaMA-Factory, "
                                   "torchtune, LitGPT or Accelerate YAML, a torchtitan TOML, a "
                                   "Megatron-LM, ms-swift or verl launch script)");
}

void runImporter(Kind kind, ConfigDoc &doc, Draft &draft)
{
    switch (kind) {
    case Kind::DeepSpeed: importDeepSpeed(doc, draft); break;
    case Kind::HfTrainer: importHfTrainer(doc, draft); break;
    case Kind::Axolotl: importAxolotl(doc, draft); break;
    case Kind::LlamaFactory: importLlamaFactory(doc, draft); break;
    case Kind::Torchtune: importTorchtune(doc, draft); break;
    case Kind::Accelerate: importAccelerate(doc, draft); break;
    case Kind::Torchtitan: importTorchtitan(doc, draft); break;
    case Kind::Litgpt: importLitgpt(doc, draft); break;
    case Kind::Megatron:
    case Kind::MsSwift:
    case Kind::Verl: break; // launch scripts: runInput
    }
}

// One file as read: its settings as a ConfigDoc (a launch script's: its command's flags).
struct Input
{
    std::unique_ptr<ConfigDoc> owned;
    std::unique_ptr<LaunchScript> launch;
    ConfigDoc *doc = nullptr;
    Kind kind = Kind::HfTrainer;
};

bool endsWith(const std::string &name, std::string_view suffix)
{
    return name.size() >= suffix.size() &&
           std::equal(suffix.rbegin(), suffix.rend(), name.rbegin(),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

Input loadInput(const std::string &name, std::string_view text)
{
    Input in;
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool braced = first != std::string_view::npos && text[first] == '{';
    if (endsWith(name, ".toml")) {
        in.owned = tomlDocument(name, text);
        in.kind = Kind::Torchtitan;
    } else if (!braced && (endsWith(name, ".sh") || endsWith(name, ".bash") ||
                           looksLikeShellScript(text))) {
        auto launch = readLaunchScript(name, text);
        if (!launch)
            throw ImportError(name + ": a shell script that runs none of Megatron-LM's "
                                     "pretrain_gpt.py, ms-swift's swift/megatron sft|pt|rlhf, "
                                     "verl's verl.trainer.main_ppo");
        in.launch = std::make_unique<LaunchScript>(std::move(*launch));
        in.kind = in.launch->tool == LaunchTool::Megatron ? Kind::Megatron
                  : in.launch->tool == LaunchTool::MsSwift ? Kind::MsSwift
                                                           : Kind::Verl;
        in.doc = in.launch->flags.get();
        return in;
    } else {
        in.owned = std::make_unique<ConfigDoc>(name, text);
        in.kind = detect(*in.owned);
    }
    in.doc = in.owned.get();
    return in;
}

void runInput(Input &in, Draft &draft)
{
    switch (in.kind) {
    case Kind::Megatron: importMegatron(*in.launch, draft); break;
    case Kind::MsSwift: importMsSwift(*in.launch, draft); break;
    case Kind::Verl: importVerl(*in.launch, draft); break;
    default: runImporter(in.kind, *in.doc, draft); break;
    }
}

// The scenario's JSON from the draft's dotted fields.
void place(nlohmann::json &root, const std::string &dotted, const nlohmann::json &value)
{
    nlohmann::json *node = &root;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = dotted.find('.', start);
        const std::string key = dotted.substr(start, dot - start);
        if (dot == std::string::npos) {
            (*node)[key] = value;
            return;
        }
        node = &(*node)[key];
        start = dot + 1;
    }
}

void flatten(const nlohmann::json &node, const std::string &path, std::vector<FieldOrigin> &out)
{
    // The model's config.json and a scenario's nested objects are leaves where they hold one
    // fact (hf_config: the file given with --model).
    if (node.is_object() && !node.empty() && path != "model.hf_config") {
        for (const auto &[key, value] : node.items())
            flatten(value, path.empty() ? key : path + "." + key, out);
        return;
    }
    out.push_back({path, node, {}});
}

// The files as (name, text); a text of nullopt is read from the file `name`.
using Inputs = std::vector<std::pair<std::string, std::optional<std::string_view>>>;

ImportResult importOrThrow(const Inputs &inputs, const ImportOptions &options)
{
    if (inputs.empty())
        throw ImportError("import: give one or more FILEs");
    std::vector<Input> inputs_;
    for (const auto &[name, text] : inputs) {
        if (text) {
            inputs_.push_back(loadInput(name, *text));
        } else {
            const std::string content = readFile(name);
            inputs_.push_back(loadInput(name, content));
        }
    }
    Draft draft(options);
    ImportResult result;
    const auto isTrainer = [](Kind k) { return k != Kind::DeepSpeed && k != Kind::Accelerate; };
    // The trainer's arguments first: a DeepSpeed "auto" is filled from them.
    int trainers = 0;
    for (auto &in : inputs_)
        if (isTrainer(in.kind)) {
            if (++trainers > 1)
                throw ImportError(in.doc->file() + ": a second trainer config; one setup is "
                                                   "one trainer config and its DeepSpeed JSON");
            runInput(in, draft);
        }
    // The launcher's config next: its engine decides what the trainer's precision means.
    for (auto &in : inputs_)
        if (in.kind == Kind::Accelerate)
            runInput(in, draft);
    bool deepspeedGiven = false;
    for (auto &in : inputs_)
        if (in.kind == Kind::DeepSpeed) {
            if (deepspeedGiven)
                throw ImportError(in.doc->file() + ": a second DeepSpeed config");
            deepspeedGiven = true;
            runInput(in, draft);
        }
    if (!deepspeedGiven && !draft.deepspeedPath.empty()) {
        if (draft.deepspeedResolved.empty())
            throw ImportError(draft.deepspeedWhere + ": '" + printableLine(draft.deepspeedPath, 200) +
                              "' is not found beside the file or in a folder above it; give it "
                              "as another FILE");
        Input in;
        in.owned = std::make_unique<ConfigDoc>(draft.deepspeedResolved,
                                               readFile(draft.deepspeedResolved));
        in.doc = in.owned.get();
        in.kind = Kind::DeepSpeed;
        if (detect(*in.doc) != Kind::DeepSpeed)
            throw ImportError(draft.deepspeedWhere + ": " + draft.deepspeedResolved +
                              " is not a DeepSpeed config");
        importDeepSpeed(*in.doc, draft);
        inputs_.push_back(std::move(in));
    }
    for (const auto &in : inputs_)
        result.formats.push_back(kindName(in.kind));

    const ModelChoice model = resolveModel(draft);
    if (draft.gpuCount() < 1)
        throw ImportError("--gpus: the GPU count is not in the files; give --gpus N");
    if (options.gpu.empty())
        throw ImportError("--gpu: the GPU is not in the files; give --gpu PRESET "
                          "(vramplan-cli gpus)");
    if (!Catalog::builtin().gpu(options.gpu))
        throw ImportError("--gpu: '" + printableLine(options.gpu, 60) +
                          "' is not a GPU preset (vramplan-cli gpus)");

    nlohmann::json doc = {{"format", "vramplan-scenario"}, {"version", scenarioFormatVersion}};
    std::string name = "Imported from";
    for (const auto &in : inputs_)
        name += " " + std::filesystem::path(in.doc->file()).filename().string();
    doc["name"] = name;
    doc["model"] = model.model;
    doc["parallelism"]["gpus"] = draft.gpuCount();
    doc["gpu"]["preset"] = options.gpu;
    for (const auto &[path, field] : draft.fields)
        place(doc, path, field.value);
    auto scenario = scenarioFromJson(doc);
    if (!scenario) {
        // Name the file and key the failing field came from.
        const std::string &error = scenario.error;
        const std::size_t colon = error.find(':');
        const DraftField *f = colon == std::string::npos ? nullptr
                                                         : draft.field(error.substr(0, colon));
        throw ImportError(f ? f->origin + ": " + error : "the imported scenario: " + error);
    }
    result.scenario = std::move(*scenario.value);
    result.scenarioJson = scenarioToJson(result.scenario);
    flatten(result.scenarioJson, "", result.fields);
    for (auto &f : result.fields) {
        if (const DraftField *d = draft.field(f.path))
            f.origin = d->origin;
        else if (f.path == "format" || f.path == "version")
            f.origin = "the scenario file format";
        else if (f.path == "name")
            f.origin = "vramplan (the files imported)";
        else if (f.path.rfind("model.", 0) == 0)
            f.origin = model.origin;
        else if (f.path == "parallelism.gpus")
            f.origin = options.gpus > 0 ? "--gpus" : draft.fileGpusOrigin;
        else if (f.path.rfind("gpu.", 0) == 0)
            f.origin = "--gpu " + options.gpu;
        else
            f.origin = "not in the file (vramplan default)";
    }
    result.warnings = std::move(draft.warnings);
    for (const auto &in : inputs_)
        for (const auto &key : in.doc->unused())
            result.ignored.push_back(in.doc->origin(key));
    return result;
}

} // namespace

static Parsed<ImportResult> importInputs(const Inputs &inputs, const ImportOptions &options)
{
    try {
        return Parsed<ImportResult>::ok(importOrThrow(inputs, options));
    } catch (const ImportError &e) {
        return Parsed<ImportResult>::fail(printableLine(e.what(), 600));
    } catch (const nlohmann::json::exception &e) {
        return Parsed<ImportResult>::fail(printableLine(std::string("import: ") + e.what(), 600));
    }
}

Parsed<ImportResult> importTrainingSetup(const std::vector<std::string> &paths,
                                         const ImportOptions &options)
{
    Inputs inputs;
    for (const auto &path : paths)
        inputs.emplace_back(path, std::nullopt);
    return importInputs(inputs, options);
}

Parsed<ImportResult> importTrainingText(const std::string &name, std::string_view text,
                                        const ImportOptions &options)
{
    return importInputs({{name, text}}, options);
}

std::vector<std::string> importFormats()
{
    return {"DeepSpeed config JSON", "Hugging Face TrainingArguments / TRL config (JSON, YAML)",
            "Axolotl YAML", "LLaMA-Factory YAML", "torchtune recipe YAML",
            "Accelerate config YAML", "torchtitan train config TOML",
            "LitGPT config_hub YAML", "Megatron-LM launch script (pretrain_gpt.py)",
            "ms-swift launch script (swift sft, megatron sft)",
            "verl launch script (verl.trainer.main_ppo)"};
}

} // namespace vramplan
