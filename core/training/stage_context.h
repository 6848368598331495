#pragma once
// What the terms of a training step share: the scenario's derived numbers for one pipeline
// stage (makeContext), and the functions that add each part's terms. Internal to core/ (the
// training/ room and the estimate's assembly).

#include "estimate_terms.h"
#include "model/model_weights.h"
#include "scenario.h"
#include "training/saved_inventory.h"

#include <algorithm>
#include <array>

namespace vramplan {

// Per-layer sums of one layer kind's weights (model_states.cpp): they do not depend on the pipeline
// stage, so the stages of one estimate compute them once (StageShared).
struct LayerStateSums
{
    bool ready = false;
    double oneLayer = 0, oneLayerLinear = 0; // local elements (quantizable ones)
    double paramsTrainable = 0, trainable = 0, optimizer = 0, optimizerSharded = 0;
    double grads = 0, master = 0, frozenQuant = 0, frozenOther = 0, largestQuantised = 0;
};

// What the stages of one estimate share and compute once: the layer kinds' state sums and the
// activation inventory (the part of each mixer kind, and the MLP part of each MLP kind). Neither
// depends on the stage: only how many layers of each kind a stage holds does.
constexpr int mixerKindCount = 7;  // Mixer's values
constexpr int mlpPartCount = 6;    // LayerMlp's values, for layers with and without a mixer
struct StageShared
{
    LayerStateSums states[8]; // by LayerGroup::slot
    bool mixerReady[mixerKindCount] = {};
    Inventory mixer[mixerKindCount]; // by Mixer
    bool mlpReady[mlpPartCount] = {};
    Inventory mlp[mlpPartCount]; // by mlpPart()
};
// The cache slot of an MLP part: its kind, and whether the layer has no mixer (then the MLP
// part holds the layer's one norm, as in Nemotron-H's MLP blocks).
inline int mlpPart(LayerMlp mlp, Mixer mixer)
{
    return int(mlp) * 2 + (mixer == Mixer::None ? 1 : 0);
}

// The tensors of the model's layer kinds, built once per estimate (modelLayers()). A model of
// the classic kinds has its main kind first (a MoE layer in a MoE model) and, in a MoE model,
// the dense kind second; a hybrid model every kind in the order of its first layer.
struct ModelLayers
{
    explicit ModelLayers(const ModelConfig &m); // the lists built in place (no copies)
    WeightList globals;                // embeddings, final norm, heads
    WeightList vision;                 // a vision-language model's tower and projector
    LayerKinds kinds;                  // with their layer counts over the whole model
    std::array<WeightList, 8> weights; // by kind (a classic dense model: one list)
};

// bitsandbytes NF4 (Dettmers et al. 2023, QLoRA §3): 4-bit codes, one 8-bit absmax per 64
// weights after double quantisation, and one fp32 second-level constant per 256 blocks.
constexpr double nf4BytesPerWeight = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
constexpr double bytesPerGiB = 1024.0 * 1024.0 * 1024.0;

struct StageContext
{
    const Scenario &s;
    const ModelConfig &m;
    const TrainingConfig &t;
    const ParallelConfig &p;
    ParameterCounts counts;
    const WeightList &globals;     // embeddings, final norm, heads
    StageShared *shared = nullptr; // what the stages share (estimate() owns it; never null)
    const WeightList *vision = nullptr; // the vision tower (first stage), or null
    // A generic model's checkpoint tensors beyond the modelled layers (first stage).
    double extraParameters = 0;

    bool training = true;
    bool full = true;  // full fine-tune (every weight trainable)
    bool lora = false; // lora or qlora
    bool qlora = false;
    bool amp = false; // fp32 weights under autocast
    bool fp32 = false;
    double act = 2; // bytes of one activation element (compute dtype)

    int64_t dp = 1, tp = 1, pp = 1, cp = 1, ep = 1;
    int stage = 0;            // 0 .. pp-1
    int64_t stageLayers = 1;  // layers on this stage
    // Of those, how many are of the main kind (MoE layers in a MoE model) and how many dense
    // layers of a MoE model: DeepSeek's first layers sit on the first stage.
    double mainLayers = 1, denseLayers = 0;
    bool hasEmbedding = true; // first stage
    bool hasHead = true;      // last stage
    double inFlight = 1;      // micro-batches whose activations this stage holds at once

    double tokens = 1;     // tokens of one micro-batch on this GPU (b * s / cp)
    double microBatch = 1; // samples of one micro-batch
    // torch.compile: Inductor's min-cut partitioner (torch/_functorch/partitioners.py
    // min_cut_rematerialization_partition) saves matmul and attention outputs and recomputes
    // the elementwise ops between them (norms, activations, casts, K/V repeats) in backward.
    bool compiled = false;
    // Fused autograd functions for norms and gated activations (Liger-Kernel, Unsloth): each
    // keeps its input and per-row statistics, not the eager chain of upcast intermediates.
    bool fusedKernels = false;
    // Unsloth's use_gradient_checkpointing="unsloth": the checkpointed layer inputs go to host
    // memory (unsloth_zoo gradient_checkpointing.py Unsloth_Offloaded_Gradient_Checkpointer).
    bool offloadedCheckpoints = false;
    // torchtune's low-memory recipe steps a paged optimizer inside backward: no gradient buffer.
    bool optimizerInBackward = false;

    // Whether a framework's model code is the eager PyTorch kind (fp32-upcast norms, K/V
    // repeated for GQA) rather than Megatron's fused kernels.
    bool eagerModelCode() const { return s.framework != Framework::Megatron; }
    // Hugging Face transformers' modelling code (also under DeepSpeed and plain loops).
    bool hfModelCode() const
    {
        return s.framework == Framework::Transformers || s.framework == Framework::Deepspeed ||
               s.framework == Framework::Pytorch || s.framework == Framework::Unsloth;
    }
    // Whether HF's model code is that of transformers major.minor or later: the scenario's
    // framework_version where it gives the transformers release. Without one, the families of
    // 2024-2026 exist only in later releases, and the older families are modelled at the
    // releases their published runs used (up to 4.45): a default of the current release would
    // misdescribe most runs of those models in the wild (docs/accuracy.md, "Versions").
    bool transformersAtLeast(int major, int minor) const
    {
        if (s.framework == Framework::Transformers && s.frameworkVersion.given)
            return s.frameworkVersion.atLeast(major, minor);
        return m.family >= Family::Qwen3;
    }
    // The group ZeRO/FSDP shards states over: data-parallel ranks times context-parallel ranks
    // (Megatron's data-parallel-with-CP group; torchtitan's dp_shard_cp mesh).
    double shardGroup() const { return double(std::max<int64_t>(1, dp * cp)); }
    bool zero3() const { return p.zeroStage >= 3; }

    // The stage's layers by kind: (tensors, how many, MLP kind, layer kind, cache slot). A model
    // of the classic kinds has two groups, its main kind first and the dense layers of a MoE
    // model second (slots by LayerKind); a hybrid model one group per kind of the model (slots
    // by the kind's index), some with no layers on this stage.
    struct LayerGroup
    {
        const WeightList *weights; // never null
        double count;
        LayerKind kind;
        LayerSpec spec;
        int slot;
    };
    StaticVector<LayerGroup, 8> groups = {};
    const StaticVector<LayerGroup, 8> &layerGroups() const { return groups; }
};

// Unsloth loads the frozen base in the 16-bit compute dtype and, unlike PEFT's
// prepare_model_for_kbit_training, does not upcast its norms and embeddings to fp32; autocast
// then has no fp32 weights to cast, and the residual stream stays 16-bit
// (unsloth/models/_utils.py prepare_model_for_training).
inline bool base16BitUnderAutocast(const StageContext &c)
{
    return c.s.framework == Framework::Unsloth && !c.full && !c.fp32;
}

// Unsloth's LoRA layers run as its own autograd functions (unsloth/kernels/fast_lora.py):
// LoRA_QKV saves the attention input once for q, k and v, and LoRA_MLP saves its input and
// the gate and up projections (X, e, g) and recomputes the gated product in backward.
inline bool unslothFastLora(const StageContext &c)
{
    return c.s.framework == Framework::Unsloth && c.lora;
}

// Bytes per token per vocabulary entry of 16-bit logits freed before the loss gradient is
// built: the caching allocator cannot reuse that block for the larger fp32 tensors, so it stays
// reserved (slack) at the peak.
double freedLogitsBlockBytes(const StageContext &ctx);

// The stage's context for `stage` of the scenario (stage_context.cpp); `shared` is owned by the
// caller and shared by the stages of one estimate.
StageContext makeContext(const Scenario &s, int stage, const ParameterCounts &counts,
                         const ModelLayers &layers, StageShared *shared);

// The group of the multi-token prediction modules' layer: of the last layer's kind, in a hybrid
// model full attention with the model's MLP; the first group where the stage has none of it.
int mtpGroup(const StageContext &c);

// A vision-language model's tower on the first stage: its blocks' saved tensors when trained,
// one block's working set when frozen, for the micro-batch's images (vision_activations.cpp).
void addVisionTower(const StageContext &c, ItemSink &out);

// Weights, gradients and optimizer states (model_states.cpp).
void addModelStates(const StageContext &ctx, ItemSink &out);
// The model load, where a framework's loading path peaks above its weights
// (initialisation.cpp).
void addInitialisation(const StageContext &ctx, ItemSink &out);
// Saved activations, logits and loss, and the backward working set (activations.cpp,
// logits_loss.cpp).
void addActivations(const StageContext &ctx, ItemSink &out);
// Inference without a serving engine: the weights, the KV cache and one forward pass's working
// set (forward_pass.cpp).
void addInference(const StageContext &ctx, ItemSink &out);

} // namespace vramplan
