#pragma once
// What the writers of export_setup.cpp share: the scenario's facts as its JSON file names them,
// and one writer per tool (export_deepspeed.cpp, export_yaml_tools.cpp, export_torchtune.cpp,
// export_megatron.cpp, export_accelerate.cpp, export_trl.cpp, export_verl.cpp,
// export_torchtitan.cpp, export_swift.cpp). Internal to core/imports/.

#include "imports/export_setup.h"

#include "formats/scenario_json.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace vramplan::exports {

using nlohmann::json;

struct Facts
{
    json s; // scenarioToJson: the names the scenario file uses
    const json &training() const { return s["training"]; }
    const json &parallel() const { return s["parallelism"]; }
    std::string precision() const { return training()["precision"].get<std::string>(); }
    std::string method() const { return training()["finetune"]["method"].get<std::string>(); }
    int64_t zero() const { return parallel()["zero_stage"].get<int64_t>(); }
    std::string offload(const char *key) const { return parallel()[key].get<std::string>(); }
    bool recompute() const { return training()["activation_recompute"] != "none"; }
    std::string preset() const { return s["model"].value("preset", ""); }
    std::vector<std::string> targets() const
    {
        return training()["finetune"]["lora_targets"].get<std::vector<std::string>>();
    }
    bool allLinear() const
    {
        const auto t = targets();
        return t.size() == 1 && t[0] == "all-linear";
    }
    int64_t gpus() const { return parallel()["gpus"].get<int64_t>(); }
    int64_t micro() const { return training()["micro_batch_size"].get<int64_t>(); }
    int64_t accumulation() const
    {
        return training()["gradient_accumulation_steps"].get<int64_t>();
    }
    std::string framework() const { return s["framework"].get<std::string>(); }
    // zero_stage 1-3 under a torch trainer (not DeepSpeed, not Megatron): FSDP shards it.
    bool fsdp() const
    {
        return zero() > 0 && framework() != "deepspeed" && framework() != "megatron";
    }
    // parallelism.fsdp_version: 1, 2, or 0 for the framework's default.
    int64_t fsdpVersion() const { return parallel().value("fsdp_version", int64_t(0)); }
    bool hasRl() const { return s.contains("rl"); }
    const json &rl() const { return s["rl"]; }
    // The data-parallel ranks: the GPUs over tensor x pipeline x context parallelism.
    int64_t dataParallel() const
    {
        const int64_t model = parallel()["tensor_parallel"].get<int64_t>() *
                              parallel()["pipeline_parallel"].get<int64_t>() *
                              parallel()["context_parallel"].get<int64_t>();
        return std::max<int64_t>(1, gpus() / std::max<int64_t>(1, model));
    }
};

// A YAML scalar, quoted where YAML would read it as something else.
std::string yamlScalar(const json &v);
// The model line of a YAML trainer: the hub id the preset was copied from, when known.
void modelLine(const Facts &f, const char *key, std::ostringstream &out,
               std::vector<std::string> &notes);
// Hugging Face `optim` names (transformers/training_args.py OptimizerNames); "" for none.
std::string hfOptim(const std::string &optimizer, const std::string &implementation);
void commonTrainerNotes(const Facts &f, std::vector<std::string> &notes);
// FSDP's offload (parameters, gradients and optimizer states move together: either offload
// of the scenario turns it on), with the notes of what FSDP cannot say: an offload of one of
// them only, and ZeRO-1 (written as ZeRO-2 by the callers).
bool fsdpOffload(const Facts &f, std::vector<std::string> &notes);
// The DeepSpeed file a tool ships for the scenario's ZeRO stage and offload.
std::string deepspeedName(const Facts &f, const char *folder, const char *pattern);
// The DeepSpeed JSON a trainer file names when no file the tool ships fits: written beside it
// with `vramplan-cli export PLAN --to deepspeed` (TRL, ms-swift with offload).
inline constexpr const char *deepspeedBeside = "ds_config.json";

ExportResult deepspeed(const Facts &f);    // export_deepspeed.cpp
ExportResult axolotl(const Facts &f);      // export_yaml_tools.cpp
ExportResult llamaFactory(const Facts &f); // export_yaml_tools.cpp
ExportResult torchtune(const Facts &f);    // export_torchtune.cpp
ExportResult megatron(const Facts &f);     // export_megatron.cpp
ExportResult accelerate(const Facts &f);   // export_accelerate.cpp
ExportResult trl(const Facts &f);          // export_trl.cpp
ExportResult verl(const Facts &f);         // export_verl.cpp (fails without an rl section)
ExportResult torchtitan(const Facts &f);   // export_torchtitan.cpp
ExportResult swift(const Facts &f);        // export_swift.cpp

// A writer that meets a field its format cannot express at all throws this (exportTrainingSetup
// returns it as the one-line failure).
struct ExportRefusal
{
    std::string message;
};

} // namespace vramplan::exports
