#pragma once
// A scenario written back in a tool's own format (issue 24, `vramplan-cli export`; the window's
// File > Export Training Setup): the settings the scenario determines, under the keys the tool
// documents, and nothing else (learning rate, data, gradient clipping stay the user's). What the
// format cannot say, or says differently, is a note. import(export(s)) gives back every field
// written (tests/core/imports/tst_exports.cpp).
//
// Example: exportTrainingSetup(s, ExportFormat::DeepSpeed) for micro-batch 2, accumulation 8,
// bf16_mixed, ZeRO-3 with the optimizer on the CPU writes
//   {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 8,
//    "bf16": {"enabled": true}, "fp16": {"enabled": false},
//    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}}

#include "parsed.h"
#include "scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan {

enum class ExportFormat
{
    DeepSpeed,    // a DeepSpeed config JSON
    Axolotl,      // an Axolotl YAML fragment
    LlamaFactory, // a LLaMA-Factory YAML fragment
    Torchtune,    // torchtune command-line overrides, key=value per line
    Megatron,     // Megatron-LM pretrain_gpt.py flags, one per line
    Accelerate,   // an Accelerate config YAML (accelerate launch --config_file): FSDP, DeepSpeed
    Trl,          // a TRL / Hugging Face TrainingArguments YAML (trl sft|grpo|dpo --config)
    Verl,         // a verl launch script (python3 -m verl.trainer.main_ppo key=value ...)
    Torchtitan,   // a torchtitan train config TOML (releases up to v0.2.2)
    Swift         // an ms-swift launch script (swift sft, or megatron sft for Megatron)
};

struct ExportResult
{
    std::string text;               // the file's contents
    // What the format cannot hold, or holds differently; in the formats with comments (YAML,
    // TOML, shell) also written as comments at the top of `text`.
    std::vector<std::string> notes;
};

// "deepspeed", "axolotl", "llamafactory", "torchtune", "megatron", "accelerate", "trl", "verl",
// "torchtitan", "swift" (exportFormatNames, in that order); nullopt for another name.
std::optional<ExportFormat> exportFormatFromName(std::string_view name);
std::vector<std::string> exportFormatNames();
// The usual file name suffix: ".json", ".yaml", ".txt", ".sh", ".toml".
std::string exportFileSuffix(ExportFormat format);

// Fails with one line naming the field the format cannot express at all ("training.mode:
// inference is not a training setup"; "rl: verl's main_ppo trains with a rollout; the scenario
// has no rl section (docs/rl.md)").
Parsed<ExportResult> exportTrainingSetup(const Scenario &scenario, ExportFormat format);

} // namespace vramplan
