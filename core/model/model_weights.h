#pragma once
// The named weight tensors of a model, from its architecture alone (SPEC §2, "parameters").
//
// Example: Llama-2-7B (32 layers, hidden 4096, 32 heads, SwiGLU 11008, vocab 32000, untied) has
// per layer q,k,v,o = 4 * 4096^2, MLP = 3 * 4096 * 11008, two RMSNorm weights of 4096, plus an
// embedding and an output matrix of 32000 * 4096 and a final norm: 6,738,415,616 in total.

#include "scenario.h"

#include "static_vector.h"

#include <array>
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
    Pooler,
    Vision // the vision tower and projector of a vision-language model
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

// One kind of layer and how many layers of it a model (or a stage) has.
struct LayerKindCount
{
    LayerSpec spec;
    int64_t layers = 0;
    int64_t perLayer = 0; // parameters of one such layer
};
using LayerKinds = StaticVector<LayerKindCount, 8>;

struct ParameterCounts
{
    int64_t total = 0;
    int64_t embedding = 0; // token, position and token-type embeddings (and their norm)
    int64_t perLayer = 0;      // one layer of the model's main kind (a MoE layer in a MoE model)
    int64_t perDenseLayer = 0; // one dense-MLP layer of a MoE model (DeepSeek's first layers)
    int64_t moeLayers = 0;     // layers that route through experts
    int64_t denseLayers = 0;   // the others
    int64_t layers = 0;        // all layers together
    int64_t finalNorm = 0;
    int64_t outputHead = 0;     // untied LM head (and its bias), pooler, classifier
    int64_t activePerToken = 0; // MoE: parameters one token passes through
    int64_t vision = 0;         // the vision tower and projector (in the total)
    LayerKinds kinds;           // every kind of layer, in the order of its first layer
};

// Tensors a published checkpoint stores that the transformers model does not build as
// parameters: reported beside the total, never in it.
struct CheckpointExtras
{
    int64_t mtp = 0;     // DeepSeek-V3 multi-token prediction layers (with their embedding/head)
    // saved buffers: e_score_correction_bias, Gemma 4's layer_scalar and std_bias/std_scale
    int64_t buffers = 0;
    int64_t fp8Scales = 0; // weight_scale_inv: one fp32 scale per block of an fp8 linear
    int64_t total() const { return mtp + buffers + fp8Scales; }
};

using WeightList = StaticVector<WeightTensor, 40>;

// Which MLP a layer has: a dense one, or routed experts (with any shared experts).
enum class LayerKind
{
    Dense,
    Moe
};

// The tensors of one transformer layer of the given kind.
WeightList layerWeights(const ModelConfig &model, LayerKind kind);
WeightList layerWeights(const ModelConfig &model, LayerSpec spec);
// The kinds of layers [from, to) and how many of each, in the order of their first layer (at
// most 8 kinds; a model with more is refused by the scenario parser).
LayerKinds layerKindsIn(const ModelConfig &model, int64_t from, int64_t to);
// The vision tower and projector (empty without one).
WeightList visionWeights(const ModelConfig &model);
// What one image becomes: patches the tower's blocks process, and image tokens the merger
// hands the language model (Qwen: patches of patch_size merged spatial_merge^2 to a token, the
// image resized to multiples of patch x merge as Qwen2VLImageProcessor's smart_resize does;
// Gemma 4: patches pooled 3 x 3, at most 280 tokens an image).
struct ImagePatches
{
    double patches = 0;
    double tokens = 0;
};
ImagePatches imagePatches(const ModelConfig &model, const VisionInputs &inputs);
// The tensors of one layer of the model's main kind (the MoE layer of a MoE model).
WeightList layerWeights(const ModelConfig &model);
// Embeddings, final norm and heads.
WeightList globalWeights(const ModelConfig &model);

ParameterCounts countParameters(const ModelConfig &model);
// The same from lists already built (the estimator builds them once per estimate); `dense` is
// the dense layer of a MoE model, or the same list as `layer`.
ParameterCounts countParameters(const ModelConfig &model, const WeightList &layer,
                                const WeightList &dense, const WeightList &globals);
// A model with a per-layer plan, from its kinds' lists (layerWeights of each kind, in order).
ParameterCounts countParameters(const ModelConfig &model, const LayerKinds &kinds,
                                const std::array<WeightList, 8> &kindWeights,
                                const WeightList &globals, const WeightList &vision);

// What the checkpoint holds beyond the parameters; fp8BlockSize > 0 for a checkpoint stored
// in block-scaled fp8 (quantization_config.weight_block_size, DeepSeek-V3: 128 x 128).
CheckpointExtras checkpointExtras(const ModelConfig &model, int64_t fp8BlockSize = 0);

// LoRA adapter parameters of one layer of the kind: rank * (in + out) for each targeted linear
// layer (Hu et al. 2021, §4; PEFT's LoraLayer creates lora_A: in->r and lora_B: r->out).
int64_t loraParametersPerLayer(const ModelConfig &model, const FinetuneConfig &finetune,
                               LayerKind kind);
int64_t loraParametersPerLayer(const ModelConfig &model, const FinetuneConfig &finetune,
                               LayerSpec spec);
// Adapter parameters of the whole model (every layer of each kind).
int64_t loraParameters(const ModelConfig &model, const FinetuneConfig &finetune);
// Whether a linear layer named like PEFT's target module is adapted ("all-linear" takes all).
// Targets may use the canonical names (q_proj, ..., down_proj) or a family's own module names
// (query, c_attn, fc1, dense_h_to_4h, w1, ...).
bool isLoraTarget(const FinetuneConfig &finetune, std::string_view loraName);
// Whether q, k and v are adapted by one fused module (c_attn, query_key_value, qkv_proj, Wqkv):
// one lora_A and one dropout for the three.
bool fusedQkvLoraTarget(const FinetuneConfig &finetune);

} // namespace vramplan
