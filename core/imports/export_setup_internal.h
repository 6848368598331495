#pragma once
// What the writers of export_setup.cpp share: the scenario's facts as its JSON file names them,
// and one writer per tool (export_deepspeed.cpp, export_yaml_tools.cpp, export_torchtune.cpp,
// export_megatron.cpp). Internal to core/imports/.

#include "imports/export_setup.h"

#include "formats/scenario_json.h"

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
};

// A YAML scalar, quoted where YAML would read it as something else.
std::string yamlScalar(const json &v);
// The model line of a YAML trainer: the hub id the preset was copied from, when known.
void modelLine(const Facts &f, const char *key, std::ostringstream &out,
               std::vector<std::string> &notes);
// Hugging Face `optim` names (transformers/training_args.py OptimizerNames); "" for none.
std::string hfOptim(const std::string &optimizer);
void commonTrainerNotes(const Facts &f, std::vector<std::string> &notes);
// The DeepSpeed file a tool ships for the scenario's ZeRO stage and offload.
std::string deepspeedName(const Facts &f, const char *folder, const char *pattern);

ExportResult deepspeed(const Facts &f);    // export_deepspeed.cpp
ExportResult axolotl(const Facts &f);      // export_yaml_tools.cpp
ExportResult llamaFactory(const Facts &f); // export_yaml_tools.cpp
ExportResult torchtune(const Facts &f);    // export_torchtune.cpp
ExportResult megatron(const Facts &f);     // export_megatron.cpp

} // namespace vramplan::exports
