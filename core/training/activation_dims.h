#pragma once
// What the files of the activation inventory (activations.cpp, which puts together the parts
// counted in norm_activations.cpp, attention_activations.cpp and mlp_activations.cpp) and the
// logits and loss terms (logits_loss.cpp) share: the per-GPU sizes of one micro-batch, and the
// functions that count each part of a layer (internal to training/).
//
// The layer parts that the 2024-2026 architectures added (multi-head latent attention, q/k
// norms, post-sublayer norms and the routers of their mixture-of-experts layers) follow the
// transformers modelling code of the family (v4.56, the first release that has every one of
// them) op by op: which tensors an op keeps for backward decides the bytes. The CPU
// measurements in tests/measure reproduce these blocks and hold the formulas to bytes.

#include "training/stage_context.h"

namespace vramplan {

// Sizes of one micro-batch on this GPU, with tensor, sequence and context parallelism applied.
struct Dims
{
    double tokens, scores; // per micro-batch on this GPU: b*s/cp and b*a*s*s/(tp*cp)
    double tp, outsideDiv; // outsideDiv: tp under sequence parallelism, else 1
    double h, qWidth, kvSavedWidth, kvWidth, ffn; // per-GPU widths (TP applied)
    double denseFfn, sharedFfn; // a MoE model's dense-layer MLP and its shared experts' MLP
    double c, normIn; // activation bytes; bytes of what a norm saves of its input
};

// Whether the family's blocks have residual dropout modules (activations.cpp).
bool hasResidualDropout(Family f);
// One layer's inventory in two parts (layer_inventory.cpp): the mixer part (the first norm,
// attention or another mixer) or the MLP part (the second norm and the MLP) of a layer of the
// kind, filled into `inv` in place; and the source its items name.
enum class LayerPart
{
    Mixer,
    Mlp
};
void layerInventory(const StageContext &c, const Dims &d, LayerSpec spec, LayerPart part,
                    Inventory &inv);
std::string_view mixerSource(Mixer mixer);
// What the stage's first layer (of group `group`) adds to the gradients at the end of backward,
// from its saved or recomputed tensors (`whole`, its mixer part's `mixerPart`), less its own and
// an untied embedding's gradients, made only after them (layer_inventory.cpp).
double firstLayerLeftAtEnd(const StageContext &c, size_t group, double whole, double mixerPart);

// Whether a linear layer keeps its input for backward (activations.cpp).
bool linearSavesInput(const StageContext &c, std::string_view loraName);
// Whether PEFT casts a LoRA target's input to fp32 adapters (activations.cpp).
bool peftCastsInputToFp32(const StageContext &c);
// A LoRA adapter's saved tensors on the linear `target` of input width `inWidth`, for
// `perToken` tokens per token of the micro-batch (activations.cpp).
void addLora(const StageContext &c, const Dims &d, Inventory &inv, std::string_view target,
             double inWidth, bool outside, double perToken = 1.0);

// Norms (norm_activations.cpp).
// How many linear layers read one norm's output (of attention, or of the MLP).
double normReaders(const StageContext &c, bool attention);
// A norm before a sublayer: its input, and its output where the next linears keep it
// (`readers` copies under autocast); `inputShared`: a parallel block's second norm.
void addNorm(const StageContext &c, const Dims &d, Inventory &inv, bool outputSaved, double readers,
             bool inputShared = false);
// The block input where no norm precedes a sublayer (OLMo 2).
void addUnnormedInput(const StageContext &c, const Dims &d, Inventory &inv, bool saved,
                      double readers);
// An RMSNorm of a linear's output of width `width` with `rows` statistics per token (q/k norms,
// MLA's q_a and kv_a norms); `weighted`: the normalised input is kept for a trained weight.
void addRmsNormOf(const StageContext &c, const Dims &d, Inventory &inv, std::string_view name,
                  std::string_view formula, double width, double rows, bool weighted);
// q/k norms (Qwen3, Gemma 3, OLMo 2, Llama 4's L2 norm) on the projections' outputs.
void addQkNorms(const StageContext &c, const Dims &d, Inventory &inv);
// A norm applied to a sublayer's output before the residual add (Gemma 2/3, OLMo 2).
void addPostNorm(const StageContext &c, const Dims &d, Inventory &inv);
// Bytes of the normalised input a norm's weight multiply keeps: 4 where the model multiplies
// in fp32 (Gemma 2/3, OLMo 2), else the dtype of the norm's input (the residual stream is fp32
// under autocast; a linear's output is in the compute dtype).
double normalisedBytes(const StageContext &c, double inputBytes);

// Attention (attention_activations.cpp).
// The attention sublayer after its norm: q, k, v, the softmax or kernel outputs, the o_proj
// input, their LoRA adapters (multi-head latent attention where the model has it).
void addAttention(const StageContext &c, const Dims &d, Inventory &inv);
// Multi-head latent attention (DeepseekV3Attention) in place of q/k/v/o.
void addMlaAttention(const StageContext &c, const Dims &d, Inventory &inv);
// Whether torch's SDPA runs its math path, keeping the b*a*s^2 probabilities.
bool sdpaMathPath(const StageContext &c);
// Whether transformers hands SDPA grouped K/V heads (enable_gqa).
bool sdpaWithGroupedHeads(const StageContext &c);

// The mixers of hybrid models (mixer_activations.cpp): Gated DeltaNet, Mamba2, LFM2's short
// convolution, after the layer's norm; and the torch Mamba2 scan's largest transient.
void addLinearAttention(const StageContext &c, const Dims &d, Inventory &inv);
// What Kimi Delta Attention keeps beyond Gated DeltaNet's fla inventory (per-channel decays, the
// q.k chunk products, the low-rank gate inputs; LoRA on its own module names).
void addKimiDeltaExtras(const StageContext &c, const Dims &d, Inventory &inv);
void addMamba(const StageContext &c, const Dims &d, Inventory &inv);
void addShortConv(const StageContext &c, const Dims &d, Inventory &inv);
double mambaTorchTransientBytes(const StageContext &c, const Dims &d);
// Bytes of the gradients of `elements` trainable elements where backward makes them one layer at
// a time (a full fine-tune, one stage, one micro-batch, unsharded), else 0 (mixer_activations.cpp).
double layerByLayerGradientBytes(const StageContext &c, double elements);
// What autograd holds when a Mamba2 layer runs its torch scan's backward, at the stage's Mamba2
// layer where that is largest (mixer_activations.cpp), from what one layer of each group keeps
// in its mixer and MLP parts: the saved tensors of the layers before it and of its mixer, and
// the gradients of what runs its backward before it.
struct MambaScanMoment
{
    double saved = 0, gradients = 0;
};
MambaScanMoment mambaScanMoment(const StageContext &c, const std::array<double, 8> &mixerSaved,
                                const std::array<double, 8> &mlpSaved);

// The MLP (mlp_activations.cpp).
// The MLP sublayer of a layer of the given kind after its norm: a dense MLP, or a MoE layer's
// router, dispatch, routed experts and shared experts.
void addMlp(const StageContext &c, const Dims &d, Inventory &inv, LayerKind kind);
// Tokens this GPU's experts receive, over the balanced share b*s*k: the imbalance factor under
// expert parallelism, capped by the capacity factor and by what the group can send.
double routedTokenFactor(const StageContext &c);
// The router, the top-k selection and the per-expert dispatch of a MoE layer.
void addRouterAndDispatch(const StageContext &c, const Dims &d, Inventory &inv);
// Experts kept in 3-D parameters with their own kernel (gpt-oss); false where the experts are
// ordinary MLPs (then the caller adds them).
bool addFusedExperts(const StageContext &c, const Dims &d, Inventory &inv);
// Bytes of gpt-oss's expert intermediates: the compute dtype, fp32 under autocast (fp32 bias).
double gptOssExpertBytes(const StageContext &c, const Dims &d);

// The final norm's input, the logits and the loss of the last stage, and the evaluation phases
// of frameworks that have them (logits_loss.cpp).
void addLogitsAndLoss(const StageContext &c, const Dims &d, ItemSink &out);

} // namespace vramplan
