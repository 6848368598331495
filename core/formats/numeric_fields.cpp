#include "formats/numeric_fields.h"

#include "formats/scenario_json.h"
#include "model/model_scaling.h"

#include <cmath>

namespace vramplan {
namespace {

#define VP_INT(PATH, MEMBER, MIN, MAX)                                                             \
    NumericField                                                                                   \
    {                                                                                              \
        PATH, true, MIN, MAX, [](const Scenario &s) { return double(s.MEMBER); },                  \
            [](Scenario &s, double v) { s.MEMBER = static_cast<int64_t>(v); }                      \
    }
#define VP_REAL(PATH, MEMBER, MIN, MAX)                                                            \
    NumericField                                                                                   \
    {                                                                                              \
        PATH, false, MIN, MAX, [](const Scenario &s) { return double(s.MEMBER); },                 \
            [](Scenario &s, double v) { s.MEMBER = v; }                                            \
    }

const NumericField fields[] = {
    VP_INT("training.micro_batch_size", training.microBatchSize, 1, 1 << 20),
    VP_INT("training.sequence_length", training.sequenceLength, 1, 1 << 24),
    VP_INT("training.gradient_accumulation_steps", training.gradientAccumulationSteps, 1, 1 << 20),
    VP_INT("training.recompute_layers", training.recomputeLayers, 0, 2048),
    VP_REAL("training.dropout", training.dropout, 0, 0.99),
    VP_INT("training.finetune.lora_rank", training.finetune.loraRank, 1, 1 << 16),
    VP_INT("training.finetune.base_weight_bits", training.finetune.baseWeightBits, 4, 32),
    VP_REAL("training.finetune.lora_dropout", training.finetune.loraDropout, 0, 0.99),
    VP_INT("parallelism.gpus", parallelism.gpus, 1, 1 << 20),
    VP_INT("parallelism.tensor_parallel", parallelism.tensorParallel, 1, 1 << 14),
    VP_INT("parallelism.pipeline_parallel", parallelism.pipelineParallel, 1, 1 << 14),
    VP_INT("parallelism.virtual_pipeline_parallel", parallelism.virtualPipelineParallel, 1,
           1 << 14),
    VP_INT("parallelism.context_parallel", parallelism.contextParallel, 1, 1 << 14),
    VP_INT("parallelism.expert_parallel", parallelism.expertParallel, 1, 1 << 14),
    VP_INT("parallelism.zero_stage", parallelism.zeroStage, 0, 3),
    VP_INT("model.layers", model.layers, 1, 2048),
    VP_INT("model.hidden_size", model.hiddenSize, 1, 1 << 18),
    VP_INT("model.attention_heads", model.attentionHeads, 1, 1 << 14),
    VP_INT("model.kv_heads", model.kvHeads, 1, 1 << 14),
    VP_INT("model.head_dim", model.headDim, 1, 1 << 18),
    VP_INT("model.ffn_hidden_size", model.ffnHiddenSize, 1, 1 << 20),
    VP_INT("model.vocab_size", model.vocabSize, 1, 1 << 24),
    VP_INT("model.max_positions", model.maxPositions, 1, 1 << 24),
    VP_INT("model.moe.experts", model.moe.experts, 0, 1024),
    VP_INT("model.moe.experts_per_token", model.moe.expertsPerToken, 0, 1024),
    VP_INT("model.moe.expert_ffn_hidden_size", model.moe.expertFfnHiddenSize, 0, 1 << 20),
    VP_REAL("gpu.memory_gib", gpu.memoryGiB, 0.001, 1.0e6),
    // The `rl` section (docs/rl.md), for a scenario that has one; bounds as its reader's
    // (scenario_rl_reader.cpp). A utilization of 0 means "the framework's default" there, so a
    // sweep starts above it.
    VP_INT("rl.group_size", rl.groupSize, 1, 1 << 16),
    VP_INT("rl.prompt_tokens", rl.promptTokens, 1, 1 << 24),
    VP_INT("rl.response_tokens", rl.responseTokens, 1, 1 << 24),
    VP_INT("rl.log_prob_micro_batch_size", rl.logProbMicroBatchSize, 1, 1 << 20),
    VP_REAL("rl.beta", rl.beta, 0, 1.0e6),
    VP_REAL("rl.rollout.gpu_memory_utilization", rl.rollout.gpuMemoryUtilization, 0.01, 1.0),
    VP_INT("rl.rollout.sleep_level", rl.rollout.sleepLevel, 0, 2),
    VP_INT("rl.rollout.tensor_parallel", rl.rollout.tensorParallel, 1, 1 << 14),
    VP_INT("rl.rollout.max_num_seqs", rl.rollout.maxNumSeqs, 1, 1 << 20),
    VP_INT("rl.rollout.gpus", rl.rollout.gpus, 1, 1 << 20),
};

#undef VP_INT
#undef VP_REAL

} // namespace

std::span<const NumericField> numericFields()
{
    return fields;
}

const NumericField *findNumericField(std::string_view path)
{
    for (const auto &f : fields)
        if (f.path == path)
            return &f;
    return nullptr;
}

std::string numericFieldPaths()
{
    std::string out;
    for (const auto &f : fields)
        out += (out.empty() ? "" : ", ") + std::string(f.path);
    return out;
}

std::string setNumericField(Scenario &s, const NumericField &field, double value)
{
    const std::string path(field.path);
    if (!std::isfinite(value) || value < field.min || value > field.max)
        return path + ": " + std::to_string(value) + " is outside " + std::to_string(field.min) +
               " .. " + std::to_string(field.max);
    if (field.integer && std::floor(value) != value)
        return path + ": must be a whole number, got " + std::to_string(value);
    if (path.starts_with("rl.") && !s.rl.present())
        return path + ": the scenario has no rl section";
    // A head width that followed the hidden size keeps following it.
    const bool derivedHeadDim = s.model.headDim * s.model.attentionHeads == s.model.hiddenSize;
    field.set(s, value);
    if (derivedHeadDim && (path == "model.hidden_size" || path == "model.attention_heads")) {
        if (s.model.hiddenSize % s.model.attentionHeads != 0)
            return "model.hidden_size: " + std::to_string(s.model.hiddenSize) +
                   " is not divisible by attention_heads " + std::to_string(s.model.attentionHeads);
        s.model.headDim = s.model.hiddenSize / s.model.attentionHeads;
    }
    if (path == "gpu.memory_gib")
        s.gpu.preset.clear();
    if (path == "model.layers") // the per-layer plan follows the layer count
        resizeLayers(s.model, s.model.layers);
    return checkScenario(s);
}

} // namespace vramplan
