#pragma once
// Model presets (Hugging Face config.json files) and the GPU catalog, from resources/ as
// compiled into the binary. Read once, on first use.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan {

struct ModelPreset
{
    std::string id;   // file name without .json: "llama-2-7b"
    std::string name; // display name: "Llama-2-7B"
    nlohmann::json hfConfig;
    std::optional<int64_t> officialParameters; // as published (safetensors total, model card)
};

struct GpuSpec
{
    std::string id;   // "h100-80gb"
    std::string name; // "H100 80GB (HBM3)"
    std::string vendor;
    std::string architecture; // volta, turing, ampere, ada, hopper, blackwell, cdna2, cdna3
    double memoryMiB = 0;     // usable, as nvidia-smi reports it
    // For the step-time model (0: the architecture's class value, step_time.cpp).
    double bf16Tflops = 0;  // dense bf16 (fp16) tensor peak
    double fp8Tflops = 0;   // dense fp8 tensor peak (0: none)
    double memoryBandwidthGBs = 0;
    double nodeLinkGBs = 0; // to the other GPUs of a node, one direction
    double hostLinkGBs = 0; // to the CPU, one direction
};

class Catalog
{
public:
    static const Catalog &builtin();

    const std::vector<ModelPreset> &presets() const { return m_presets; }
    const std::vector<GpuSpec> &gpus() const { return m_gpus; }
    const ModelPreset *preset(std::string_view id) const;
    const GpuSpec *gpu(std::string_view id) const;
    std::string presetIds() const;
    // resources/scenarios/default.vramplan.json: what the planner opens with.
    std::string_view defaultScenarioText() const;
    std::string gpuIds() const;

private:
    std::vector<ModelPreset> m_presets;
    std::vector<GpuSpec> m_gpus;
};

} // namespace vramplan
