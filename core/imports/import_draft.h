#pragma once
// What the importers of core/imports/ write into: scenario fields by dotted path ("training.
// micro_batch_size"), each with its origin, the model a file names, the DeepSpeed file a
// trainer's arguments point to, and the warnings. importTrainingSetup turns it into a scenario.
// Internal to core/imports/.

#include "imports/config_document.h"
#include "imports/import_setup.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vramplan::imports {

struct DraftField
{
    nlohmann::json value;
    std::string origin;
};

// A fact of the trainer's arguments that a DeepSpeed "auto" is filled from
// (transformers/integrations/deepspeed.py, HfTrainerDeepSpeedConfig.trainer_config_process).
struct TrainerFact
{
    nlohmann::json value;
    std::string origin;
};

struct Draft
{
    explicit Draft(const ImportOptions &o) : options(o) {}
    const ImportOptions &options;
    std::map<std::string, DraftField, std::less<>> fields;
    std::vector<std::string> warnings;
    // The model as a file names it (a hub id, a local path, a torchtune builder).
    std::string modelName, modelOrigin, modelWhere;
    // A preset the file's model maps to directly (torchtune builders), else "".
    std::string modelPreset;
    // The model is given by the file's own fields (Megatron's --num-layers, --hidden-size...),
    // set as "model.*" fields: no preset, no hub id.
    bool modelFromFields = false;
    // The DeepSpeed config named by a trainer's arguments: its path as written, resolved.
    std::string deepspeedPath, deepspeedResolved, deepspeedWhere;
    // The trainer's batch, accumulation and precision, for DeepSpeed's "auto".
    std::map<std::string, TrainerFact, std::less<>> trainer;

    // The GPU count a file gives (Accelerate's num_processes); --gpus wins.
    int64_t fileGpus = 0;
    std::string fileGpusOrigin;
    int64_t gpuCount() const { return options.gpus > 0 ? options.gpus : fileGpus; }

    void set(const std::string &path, nlohmann::json value, std::string origin)
    {
        fields[path] = {std::move(value), std::move(origin)};
    }
    bool has(std::string_view path) const { return fields.find(path) != fields.end(); }
    const DraftField *field(std::string_view path) const
    {
        const auto it = fields.find(path);
        return it == fields.end() ? nullptr : &it->second;
    }
    void warn(std::string text) { warnings.push_back(std::move(text)); }
};

// The importers, one per tool (deepspeed_import.cpp, trainer_import.cpp, axolotl_import.cpp,
// llamafactory_import.cpp, torchtune_import.cpp).
void importDeepSpeed(ConfigDoc &doc, Draft &draft);
void importHfTrainer(ConfigDoc &doc, Draft &draft);
// A TRL GRPO or DPO config's `rl` section (trl_rl_import.cpp); nothing for other trainers.
void importTrlRl(ConfigDoc &doc, Draft &draft);
void importAxolotl(ConfigDoc &doc, Draft &draft);
void importLlamaFactory(ConfigDoc &doc, Draft &draft);
void importTorchtune(ConfigDoc &doc, Draft &draft);
void importAccelerate(ConfigDoc &doc, Draft &draft);
void importTorchtitan(ConfigDoc &doc, Draft &draft);
void importLitgpt(ConfigDoc &doc, Draft &draft);
// The launch scripts (launch_command.h): megatron_import.cpp, swift_import.cpp, verl_import.cpp.
struct LaunchScript;
void importMegatron(LaunchScript &launch, Draft &draft);
void importMsSwift(LaunchScript &launch, Draft &draft);
void importVerl(LaunchScript &launch, Draft &draft);
// A TOML file (torchtitan's train configs) as a ConfigDoc: toml_document.cpp, toml++.
std::unique_ptr<ConfigDoc> tomlDocument(const std::string &file, std::string_view text);

// What the Hugging Face Trainer's own keys mean, shared by the tools built on it (TRL,
// Axolotl, LLaMA-Factory): trainer_keys.cpp.
//
// HF `optim` names (transformers/training_args.py OptimizerNames) and Axolotl's `optimizer`:
// the scenario's optimizer and implementation, or nullopt for one the planner does not know.
struct OptimizerChoice
{
    std::string optimizer;
    std::string implementation = "auto";
};
std::optional<OptimizerChoice> optimizerFromHfName(const std::string &name);
// LoRA target module names as written (a list, "all-linear", "all", "q_proj,v_proj") into the
// scenario's names; "all" means every linear layer of a decoder block.
std::vector<std::string> loraTargetsFrom(const nlohmann::json &value, const ConfigDoc &doc,
                                         std::string_view key);
// Records `deepspeed: PATH` of a trainer's arguments, resolved against the file's folder and
// the folders above it (tools run from their repository root: LLaMA-Factory's examples name
// "examples/deepspeed/ds_z3_config.json").
void noteDeepSpeedReference(ConfigDoc &doc, std::string_view key, Draft &draft);
// The trainer's batch keys and precision flags as facts for DeepSpeed's "auto".
void noteTrainerFact(Draft &draft, const std::string &name, nlohmann::json value,
                     std::string origin);
// bf16 / fp16 of a trainer: the flag's value, "auto" (Axolotl: bf16 where the GPU has it, taken
// as true), or absent.
std::optional<bool> trainerFlag(ConfigDoc &doc, std::string_view key);
// `fsdp` of a trainer ("full_shard auto_wrap", a list, Axolotl's fsdp_config): ZeRO stage,
// offload and FSDP version, with warnings for what the scenario cannot hold.
void importFsdp(ConfigDoc &doc, std::string_view key, std::string_view configKey, Draft &draft);

// The model (model_source.cpp): --model (a preset, a config.json, a checkpoint folder), else the
// preset of the hub id or torchtune builder a file names; the scenario's "model" object and
// its origin. Throws ImportError asking for --model where no preset is bundled (never a guess).
struct ModelChoice
{
    nlohmann::json model;
    std::string origin;
};
ModelChoice resolveModel(const Draft &draft);
// The bundled preset of a Hugging Face hub id ("meta-llama/Llama-3.1-8B"), or "".
std::string presetOfHubId(std::string_view id);
std::string presetOfTorchtuneBuilder(const std::string &builder);
// The other way, for export_setup.cpp: a hub id whose config.json is the preset's (lower case,
// as the hub resolves it), the torchtune builder of a preset, the torchtune module of a builder
// ("llama3_1_8b" -> "llama3_1"); "" where none is known.
std::string hubIdOfPreset(std::string_view preset);
std::string torchtuneBuilderOfPreset(std::string_view preset);
std::string torchtuneModuleOf(const std::string &builder);

} // namespace vramplan::imports
