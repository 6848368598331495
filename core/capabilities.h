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
    Count
};
constexpr int knobCount = static_cast<int>(Knob::Count);

// Whether `framework` has the knob.
bool frameworkHas(Framework framework, Knob knob);
// "ZeRO-3 parameter offload to the CPU", for messages.
std::string_view knobLabel(Knob knob);
// Where the framework's row of the table comes from.
std::string_view capabilitySource(Framework framework);

// The knobs the scenario uses that its framework lacks, in Knob order; `out` holds at most
// knobCount entries and the count is returned.
int missingCapabilities(const Scenario &s, Knob out[knobCount]);

} // namespace vramplan
