#pragma once
// The pieces layerWeights() puts together (internal to model/): linear layers and MLPs under a
// family's module names, each mixer's tensors, a MoE block's, and a vision tower's.

#include "model/model_weights.h"

namespace vramplan {

// LayerNorm has a weight and a bias; RMSNorm a weight only.
inline int64_t normWidth(const ModelConfig &m)
{
    return m.norm == NormType::LayerNorm ? 2 : 1;
}

struct LinearNames
{
    std::string_view weight, bias, lora;
};
// A linear layer in -> outF (its bias if withBias), split across tensor-parallel ranks.
void addLinear(WeightList &out, LinearNames names, int64_t in, int64_t outF, bool withBias,
               WeightPlace place, int64_t copies = 1);

// An MLP of width `ffn`: gate (gated types), up and down, under the given module names.
struct MlpNames
{
    LinearNames gate, up, down;
};
extern const MlpNames denseMlp, sharedMlp, expertMlp, fusedExpertMlp;
void addMlp(WeightList &out, const ModelConfig &m, int64_t ffn, WeightPlace place, int64_t copies,
            const MlpNames &names, bool withBias, int64_t width = 0);

// Attention of the mixer kind (softmax attention, Gemma 4's global attention), with its q/k
// norms, output gate, sinks and DeepSeek's indexer (attention_weights.cpp).
void addAttentionWeights(WeightList &out, const ModelConfig &m, Mixer mixer);
// Gated DeltaNet (and Kimi Delta Attention), Mamba2 and LFM2's short convolution
// (mixer_weights.cpp).
void addLinearAttentionWeights(WeightList &out, const ModelConfig &m);
void addKimiDeltaWeights(WeightList &out, const ModelConfig &m); // Kimi Delta Attention
void addMambaWeights(WeightList &out, const ModelConfig &m);
void addShortConvWeights(WeightList &out, const ModelConfig &m);
// The routed experts, router and shared experts of a MoE layer (mlp_weights.cpp).
void addMoeWeights(WeightList &out, const ModelConfig &m);

} // namespace vramplan
