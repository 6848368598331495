#pragma once
// The named weight tensors of a model, from its architecture alone (SPEC §2, "parameters").
//
// Example: Llama-2-7B (32 layers, hidden 4096, 32 heads, SwiGLU 11008, vocab 32000, untied) has
// per layer q,k,v,o = 4 * 4096^2, MLP = 3 * 4096 * 11008, two RMSNorm weights of 4096, plus an
// embedding and an output matrix of 32000 * 4096 and a final norm: 6,738,415,616 in total.

#include "scenario.h"

#include "static_vector.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace vramplan {

// Where a tensor sits, which decides how tensor, pipeline and expert parallelism split it.
enum class WeightPlace
{
    Embedding,
    Layer,
    Expert,
    FinalNorm,
    OutputHead,
    Pooler
};

struct WeightTensor
{
    std::string_view name;     // "q_proj.weight", "experts.gate_proj.weight", ...
    std::string_view loraName; // the PEFT target name of a linear layer ("q_proj"), or empty
    WeightPlace place = WeightPlace::Layer;
    int64_t rows = 0;            // output features (or vocabulary entries for an embedding)
    int64_t cols = 1;            // input features; 1 for a vector (bias, norm weight)
    int64_t copies = 1;          // experts in a layer hold `copies` tensors of this shape
    bool tensorParallel = false; // split across tensor-parallel ranks (Megatron column/row)
    bool quantizable = false;    // a linear weight that QLoRA stores in 4 bits

    int64_t elements() const { return rows * cols * copies; }
    bool isMatrix() const { return cols > 1; }
};

struct ParameterCounts
{
    int64_t total = 0;
    int64_t embedding = 0; // token, position and token-type embeddings (and their norm)
    int64_t perLayer = 0;
    int64_t layers = 0; // perLayer * number of layers
    int64_t finalNorm = 0;
    int64_t outputHead = 0;     // untied LM head (and its bias), pooler, classifier
    int64_t activePerToken = 0; // MoE: parameters one token passes through
};

using WeightList = StaticVector<WeightTensor, 40>;

// The tensors of one transformer layer (all layers share the shapes).
WeightList layerWeights(const ModelConfig &model);
// Embeddings, final norm and heads.
WeightList globalWeights(const ModelConfig &model);

ParameterCounts countParameters(const ModelConfig &model);
// The same from lists already built (the estimator builds them once per estimate).
ParameterCounts countParameters(const ModelConfig &model, const WeightList &layer,
                                const WeightList &globals);

// LoRA adapter parameters per layer: rank * (in + out) for each targeted linear layer
// (Hu et al. 2021, §4; PEFT's LoraLayer creates lora_A: in->r and lora_B: r->out).
int64_t loraParametersPerLayer(const ModelConfig &model, const FinetuneConfig &finetune);
// Whether a linear layer named like PEFT's target module is adapted ("all-linear" takes all).
// Targets may use the canonical names (q_proj, ..., down_proj) or a family's own module names
// (query, c_attn, fc1, dense_h_to_4h, w1, ...).
bool isLoraTarget(const FinetuneConfig &finetune, std::string_view loraName);
// Whether q, k and v are adapted by one fused module (c_attn, query_key_value, qkv_proj, Wqkv):
// one lora_A and one dropout for the three.
bool fusedQkvLoraTarget(const FinetuneConfig &finetune);

} // namespace vramplan
