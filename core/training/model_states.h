#pragma once
// What the terms of the model states share (internal to training/): the phases weights,
// gradients and optimizer states live in, the layout every term reads, and the stage's totals
// (the bytes of one element of each: state_rules.h). model_states.cpp adds the states
// themselves; the buffers of the framework that shards them, the copies compute makes of the
// weights and the optimizer's step buffers are added after them, in that order
// (deepspeed_buffers.cpp, fsdp_buffers.cpp, weight_copies.cpp, optimizer_step_buffers.cpp).

#include "training/state_rules.h"

namespace vramplan {

// Weights and optimizer states persist through the whole run, validation and generation
// included; gradients are freed by zero_grad before a validation pass.
constexpr unsigned steadyPhases = allPhases;
constexpr unsigned gradientPhases = phaseBit(Phase::BackwardEnd) | phaseBit(Phase::OptimizerStep);
constexpr unsigned backwardPhases =
    phaseBit(Phase::LossBackward) | phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd);
// Validation and generation are forward passes: per-layer gathers happen there too.
constexpr unsigned computePhases = phaseBit(Phase::Forward) | backwardPhases | evaluationPhases;

// The layout and precision the rules read, the same for every term of one stage.
struct StatesSetup
{
    double tp = 1, dp = 1; // tensor-parallel ranks; the group ZeRO/FSDP shards over
    bool z1 = false, z2 = false, z3 = false;
    bool offloadStates = false, offloadParams = false;
    Framework fw = Framework::Transformers;
    // Lightning's BitsandbytesPrecision converts every nn.Linear, the head included (no
    // ignore_modules in LitGPT's finetune scripts); transformers keeps the head in 16 bits.
    bool headQuantised = false;
    double wb = 2, gb = 2; // bytes of a weight and of a gradient
    StateBytes sb;         // bytes of an optimizer-state element, per state
    bool master = false;   // a separate master copy of the weights
    double masterBytes = 4; // its element: fp32, or optimizer_precision.master_weights
    bool paged = false;            // paged optimizer states (unified memory)
    double computeWeightBytes = 2;
    // Lightning Fabric's FSDP1 keeps unsharded 16-bit weights (fsdp_buffers.cpp).
    bool fabricUnsharded = false;
    // torchtitan with pipeline parallelism keeps its whole stage unsharded and its gradients in
    // unsharded accumulators (fsdp_buffers.cpp): no layer-by-layer gathering to count beside them.
    bool ppUnsharded = false;
};
StatesSetup statesSetup(const StageContext &c);

struct LocalSizes
{
    double all = 0;    // every local weight element
    double linear = 0; // layer linear weights (quantizable under QLoRA)
    double layerMatrices = 0;
    double oneLayer = 0; // one layer's local elements
    double oneLayerLinear = 0;
    double root = 0; // embeddings, final norm and heads held on this stage
    double rootEmbedding = 0; // of `root`, the token embeddings
};

// The stage's weights, gradients and optimizer states, summed over its tensors (sharded as the
// layout says; model_states.cpp).
struct StateTotals
{
    LocalSizes size;
    double trainable = 0;
    double frozenQuantBytes = 0, frozenOtherBytes = 0;
    double largestQuantised = 0; // elements of the largest 4-bit matrix (dequantised per call)
    double optimizerSharded = 0, gradsSharded = 0, masterSharded = 0, paramsTrainable = 0;
    double adapterParamBytes = 0, adapterGradBytes = 0, adapterStateBytes = 0;
    double visionFrozenBytes = 0; // a frozen vision tower (first stage)
};

// DeepSpeed ZeRO-3's gathered parameters and buckets, and ZeRO-1/2's reduce bucket
// (deepspeed_buffers.cpp).
void addDeepspeedZero3Buffers(const StageContext &c, const StatesSetup &k, const StateTotals &t,
                              ItemSink &out);
void addDeepspeedReduceBucket(const StageContext &c, const StatesSetup &k, const StateTotals &t,
                              ItemSink &out);
// Torch FSDP's gathered layers, root unit and unsharded gradients; the unsharded copies that
// torchtitan's pipeline stages and Lightning Fabric keep (fsdp_buffers.cpp).
void addFsdpBuffers(const StageContext &c, const StatesSetup &k, const StateTotals &t,
                    ItemSink &out);
void addUnshardedCopies(const StageContext &c, const StatesSetup &k, const StateTotals &t,
                        ItemSink &out);
// Copies of the weights that compute makes: autocast's casts, fp32 routers, dequantised 4-bit
// matrices, fp8 caches (weight_copies.cpp).
void addWeightCopies(const StageContext &c, const StatesSetup &k, const StateTotals &t,
                     ItemSink &out);
// The optimizer step's own buffers (optimizer_step_buffers.cpp).
void addOptimizerStepBuffers(const StageContext &c, const StatesSetup &k, const StateTotals &t,
                             ItemSink &out);
// What the process allocates whatever the model's size: torch's and Transformer Engine's GEMM
// workspaces, inside the caching allocator (process_buffers.cpp).
void addProcessBuffers(const StageContext &c, ItemSink &out);

} // namespace vramplan
