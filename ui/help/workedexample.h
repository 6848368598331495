#pragma once
// The guide's worked example: a 7B model's bytes per parameter under mixed-precision AdamW, with
// every number taken from the estimator's own items for the Llama-2-7B preset (never typed into
// the text), and what ZeRO-3, LoRA and QLoRA make of them.

#include "scenario.h"

#include <QString>

#include <string>

namespace vramplan::ui {

struct WorkedExample
{
    QString error; // non-empty: the example could not be computed (the guide says so)
    QString model; // "Llama-2-7B"
    double parameters = 0; // the preset's parameter count (all trainable in a full fine-tune)
    // One GPU, full fine-tune, bf16_mixed, AdamW: the items' bytes (gradients and states are
    // items of their own, alive through the optimizer step).
    double weights = 0, gradients = 0, states = 0, master = 0;
    double device = 0, activations = 0, capacity = 0; // the whole estimate at its peak
    QString peakPhase, gpu;
    int64_t microBatch = 0, sequence = 0;
    // The same run with ZeRO-3 over `shards` GPUs: model states per GPU and the device peak.
    int shards = 8;
    double shardedWeights = 0, shardedGradients = 0, shardedStates = 0, shardedMaster = 0;
    double shardedDevice = 0;
    // The frozen base under LoRA (16-bit) and QLoRA (NF4 linears), and their adapters.
    double loraBase = 0, qloraBase = 0, adapterParameters = 0;

    double modelStates() const { return weights + gradients + states + master; }
    double shardedModelStates() const
    {
        return shardedWeights + shardedGradients + shardedStates + shardedMaster;
    }
};

// The scenario of the example: Llama-2-7B, bf16_mixed, AdamW, full fine-tune, micro-batch 1 at
// 4,096 tokens on one H100-80GB with transformers; `gpus` and `zeroStage` shard it, `method`
// ("full", "lora", "qlora") chooses what is trained.
std::string workedExampleScenarioText(int gpus = 1, int zeroStage = 0,
                                      const std::string &method = "full");

WorkedExample workedExample();
// "2", "0.5", "16": bytes per parameter with at most two decimals, no trailing zeros.
QString bytesPerParameterText(double bytes, double parameters);
QString workedExampleHtml(const WorkedExample &example);

} // namespace vramplan::ui
