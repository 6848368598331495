#pragma once
// The vocabulary of every memory term (SPEC §2): the components a byte belongs to, the phases of
// a training step it is alive in, a named Item with its formula and source, the warnings, and
// the symbols formulas use. Training and serving add Items; estimate.h puts them together.

#include "static_vector.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace vramplan {

enum class Component
{
    Parameters,
    Gradients,
    OptimizerStates,
    Activations,
    LogitsAndLoss,
    Temporary,
    Framework,
    // Extension: an inference server's KV cache under `serving` (SPEC §3; docs/serving.md).
    // Training estimates and naive inference (no `serving`) leave it at zero.
    KvCache
};
constexpr int componentCount = 8;
std::string_view componentKey(Component c);   // "optimizer_states"
std::string_view componentLabel(Component c); // "Optimizer states"

// Moments of one training step at which memory is taken (steady state: optimizer states exist
// from the first optimizer step on, so they are present in every phase of later steps).
// LossBackward: the cross-entropy gradient exists while every saved activation is still held;
// LayerBackward: backward of the last layer (its recomputation, its working set).
enum class Phase
{
    Forward,
    LossBackward,
    LayerBackward,
    BackwardEnd,
    OptimizerStep,
    Validation, // a no-grad pass over validation batches with full logits (LitGPT)
    Generation, // sampling text with a KV cache between steps (LitGPT's finetune scripts)
    // Loading the model before the first step, where the framework's loading path peaks above
    // the weights it leaves (initialisation.cpp). Present only where a scenario has such a
    // term; only items that say so are alive in it.
    Initialisation
};
constexpr int phaseCount = 8;
std::string_view phaseKey(Phase p);   // "backward" (what SPEC's "peak.phase" holds)
std::string_view phaseLabel(Phase p); // "start of backward"

constexpr unsigned phaseBit(Phase p)
{
    return 1u << static_cast<unsigned>(p);
}
// Every phase of a training step and its evaluation, not the initialisation before it: an
// item alive at initialisation says so with initialisationPhase.
constexpr unsigned allPhases = (1u << static_cast<unsigned>(Phase::Initialisation)) - 1;
constexpr unsigned initialisationPhase = phaseBit(Phase::Initialisation);
constexpr unsigned evaluationPhases = phaseBit(Phase::Validation) | phaseBit(Phase::Generation);
constexpr unsigned trainingPhases = allPhases & ~evaluationPhases;

// One named quantity: `count` units (layers, tensors) of `perUnit` bytes each.
struct Item
{
    Component component = Component::Parameters;
    std::string_view name;    // "q after RoPE (saved by attention)"
    std::string_view formula; // "b*s*a*d*2 per layer"
    std::string_view source;  // "Korthikanti et al. 2022, Table 2", "transformers LlamaRMSNorm"
    double perUnit = 0;
    double count = 1;
    unsigned phases = allPhases;   // where it is alive
    bool outsideAllocator = false; // paged optimizer states, NCCL buffers, CUDA context
    // Allocated on a collective's own CUDA stream (FSDP's all-gather outputs): the caching
    // allocator reuses a freed block only for that stream (c10/cuda/CUDACachingAllocator.cpp,
    // a block's `stream` must match in get_free_block), so those blocks stay reserved for it at
    // the largest total they reach in any phase.
    bool streamPooled = false;

    double bytes() const { return perUnit * count; }
    bool aliveIn(Phase p) const { return (phases & phaseBit(p)) != 0; }
};
// The terms of one estimate, in the order they were added.
using ItemList = StaticVector<Item, 72>;

// Where the parts of the estimator add their terms: an item of no bytes is left out.
class ItemSink
{
public:
    explicit ItemSink(ItemList &items) : m_items(items) {}
    void add(Component c, std::string_view name, std::string_view formula, std::string_view source,
             double perUnit, double count, unsigned phases = allPhases, bool outside = false,
             bool streamPooled = false)
    {
        if (!(perUnit > 0) || !(count > 0))
            return;
        m_items.push_back(
            {c, name, formula, source, perUnit, count, phases, outside, streamPooled});
    }

private:
    ItemList &m_items;
};

enum class WarningCode
{
    EagerScoresLarge, // value: bytes of the s^2 scores per layer
    ZeroWithoutDataParallel,
    OffloadParametersNeedsZero3,
    SequenceBeyondPositions, // value: max positions
    PagedStatesOutsideAllocator,
    PipelineStagesUneven,
    DoesNotFit, // value: overflow bytes
    Clamped,
    FrameworkLacks, // value: the Knob (capabilities.h) the scenario's framework does not have
    ServingFails,   // value: the ServingStatus; the text is servingFailureText(estimate.serving)
    Float8AllGatherIgnored, // parallelism.fsdp_float8_all_gather where it does not apply
    // training.vision: value image tokens per sample, value2 the sequence length they exceed;
    // or (value2 0) images for a model without a vision tower
    ImageTokensBeyondSequence,
    VisionInputsWithoutTower,
    GenericModel,      // a model_type vramplan was not taught, planned from standard fields
    CheckpointDiffers, // value: the checkpoint's tensors, value2: what the layers count
    PagedStatesSpill,  // value: bytes of paged optimizer states the device cannot hold
};

struct Warning
{
    WarningCode code;
    double value = 0;
    double value2 = 0;
};

struct PhaseTotals
{
    Phase phase = Phase::Forward;
    bool present = false;
    double allocated = 0;
    std::array<double, componentCount> byComponent{}; // allocated bytes, framework excluded
};

struct Peak
{
    double allocated = 0; // torch.cuda.max_memory_allocated()
    double reserved = 0;  // torch.cuda.max_memory_reserved()
    double device = 0;    // nvidia-smi: reserved + CUDA context + NCCL + paged memory
    Phase phase = Phase::LossBackward;
};

// The values of the symbols item formulas use (per GPU: after TP, CP and pipeline
// micro-batching), so that a formula can be shown with its numbers put in.
struct FormulaSymbols
{
    double b = 0, s = 0, h = 0, a = 0, kv = 0, d = 0, f = 0, V = 0, c = 0, r = 0, E = 0, k = 0;
};

// "b*s*a*d*c" -> "b*s*a*d*c = 1*4096*32*128*2"; a formula without known symbols is returned as
// it is.
std::string formulaWithNumbers(std::string_view formula, const FormulaSymbols &symbols);

} // namespace vramplan
