#pragma once
// Which knobs each framework has (SPEC §3 `framework`): the advisor proposes only what the
// scenario's framework can do, and an estimate warns when a scenario asks for something its
// framework lacks. Each framework's row names the documentation and code it was read from.

#include "scenario.h"

#include <string_view>

namespace vramplan {

enum class Knob
{
    Zero1,                 // sharded optimizer states (ZeRO-1, Megatron's distributed optimizer)
    Zero2,                 // sharded gradients too
    Zero3,                 // sharded parameters too (ZeRO-3, FSDP full shard)
    OffloadOptimizerCpu,   // optimizer states (and step) on the host
    OffloadOptimizerNvme,  // optimizer states on NVMe
    OffloadParametersCpu,  // parameters on the host between uses (ZeRO-3 / FSDP)
    OffloadParametersNvme, // parameters on NVMe
    TensorParallel,
    SequenceParallel,
    PipelineParallel,
    VirtualPipeline, // interleaved pipeline schedules
    ContextParallel,
    ExpertParallel,
    RecomputeSelective,
    RecomputeFull,
    RecomputePartial, // full recomputation of N of the layers
    Lora,
    Qlora,
    Fp8,
    EightBitOptimizer,
    PagedOptimizer,
    ChunkedLoss,     // the cross-entropy over chunks of the sequence
    FusedLinearLoss, // head and cross-entropy fused (Liger, Cut Cross-Entropy, Unsloth)
    Compile,         // torch.compile of the model (and loss)
    LigerKernels,    // Liger-Kernel's fused norm / gated-activation / RoPE kernels
    // training.optimizer_precision: 16-bit (or Megatron's fp8) master weights, gradients or
    // states chosen per field (Megatron's precision-aware optimizer, DeepSpeed's
    // bf16_master_weights_and_grads / bf16_optimizer_states)
    PrecisionAwareOptimizer,
    LowBitOptimizerStates, // torchao's AdamW8bit, AdamW4bit, AdamWFp8 (int8 / int4 / fp8 states)
    FusedLoss,             // the framework's fused cross-entropy kernel (Megatron's loss fusion)
    GroupedGemm,           // a MoE layer's experts as one grouped GEMM (Transformer Engine)
    Count
};
constexpr int knobCount = static_cast<int>(Knob::Count);

// Whether `framework` has the knob.
bool frameworkHas(Framework framework, Knob knob);
// "ZeRO-3 parameter offload to the CPU", for messages.
std::string_view knobLabel(Knob knob);
// Where the framework's row of the table comes from.
std::string_view capabilitySource(Framework framework);

// Which torch FSDP implements zero_stage 2/3 for the scenario: its `parallelism.fsdp_version`
// where given, else the framework's own default (docs/training_stacks.md "FSDP1 against
// FSDP2"): torchtitan, torchtune and plain PyTorch 2 (fully_shard), transformers (accelerate's
// FullyShardedDataParallelPlugin, fsdp_version "1" unless FSDP_VERSION says otherwise) and
// LitGPT (Lightning Fabric's FSDPStrategy) 1. 0 where the framework shards with its own engine
// (DeepSpeed, Megatron) or not at all (Unsloth).
int fsdpVersionOf(const Scenario &s);
// Whether `parallelism.fsdp_float8_all_gather` acts on the estimate: training in fp8_mixed under
// FSDP2 full shard (zero_stage 3) with more than one data-parallel rank, where torchao's
// fsdp_pre_all_gather extension exists (FSDP1 has no such extension point).
bool fsdpFloat8AllGatherApplies(const Scenario &s);

// The knobs the scenario uses that its framework lacks, in Knob order; `out` holds at most
// knobCount entries and the count is returned.
int missingCapabilities(const Scenario &s, Knob out[knobCount]);

} // namespace vramplan
