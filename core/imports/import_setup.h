#pragma once
// A training setup written for another tool, read into a scenario (SPEC §3 "Command line",
// `vramplan-cli import`; issue 24): a DeepSpeed config JSON, Hugging Face TrainingArguments / TRL
// configs (JSON or YAML), Axolotl YAML, LLaMA-Factory YAML, torchtune recipe YAML, Accelerate
// config YAML. Every field
// of the scenario says where it came from; keys the planner does not model are listed, settings
// the scenario cannot hold are named in a warning. The window calls the same function.
//
// Example: importTrainingSetup({"qlora.yml"}, {"llama-3.1-8b", 1, "h100-80gb"}) for Axolotl's
// examples/llama-3/qlora.yml (whose Meta-Llama-3-8B is no bundled preset: without --model the
// error asks for it) gives micro-batch 2 (origin "qlora.yml:micro_batch_size"), a 4-bit base,
// LoRA rank 32 on every linear layer, paged AdamW ("qlora.yml:optimizer").

#include "parsed.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vramplan {

// What only the launcher knows, and the model where the file names none the planner has.
struct ImportOptions
{
    std::string model; // a preset id, a config.json or a checkpoint folder (--model); "" none
    int64_t gpus = 0;  // --gpus; 0: not given
    std::string gpu;   // a GPU preset id (--gpu); "" not given
};

// One field of the scenario: its dotted path ("training.micro_batch_size"), its value as the
// scenario file writes it, and where it came from: "FILE:KEY", a tool's default with the source
// file of that default ("transformers default (src/transformers/training_args.py)"), a flag
// ("--gpus"), or "not in the file (vramplan default)".
struct FieldOrigin
{
    std::string path;
    nlohmann::json value;
    std::string origin;
};

struct ImportResult
{
    Scenario scenario;
    nlohmann::json scenarioJson;       // scenarioToJson(scenario): what a scenario file holds
    std::vector<FieldOrigin> fields;   // every leaf of scenarioJson, in its order
    std::vector<std::string> formats;  // per file: "deepspeed", "hf_trainer", "axolotl",
                                       // "llamafactory", "torchtune", "accelerate"
    std::vector<std::string> warnings; // settings the scenario cannot hold, guesses refused
    std::vector<std::string> ignored;  // "FILE:KEY" of every key not modelled
};

// Reads the files (one setup: e.g. a TrainingArguments YAML and the DeepSpeed JSON it names)
// into one scenario. Fails with one line naming the file and the line or key ("lora.yml:12:
// ...", "ds.json: zero_optimization.stage: must be 0 to 3, got 4"), or the flag that gives a
// missing fact ("--gpus: the GPU count is not in the files; give --gpus N").
Parsed<ImportResult> importTrainingSetup(const std::vector<std::string> &paths,
                                         const ImportOptions &options);

// The same for one file already in memory (a file dropped on the window, the fuzz target):
// `name` stands for its path in messages, and a DeepSpeed config it names is looked for beside
// it.
Parsed<ImportResult> importTrainingText(const std::string &name, std::string_view text,
                                        const ImportOptions &options);

// The formats importTrainingSetup reads, for usage lines and the window's file dialog.
std::vector<std::string> importFormats();

} // namespace vramplan
