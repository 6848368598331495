#pragma once
// The rules of the model states (internal to training/): what one element of a weight, of its
// gradient and of the optimizer's states takes under the scenario's precision, optimizer and
// framework (SPEC §2 rows "parameters", "gradients", "optimizer states"). Inline: they run for
// every tensor of every layer kind, and the sums over those tensors (model_states.cpp) are the
// estimate's innermost loop.

#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {

inline bool mixedMaster(Precision p)
{
    return p == Precision::Fp16Mixed || p == Precision::Bf16Mixed || p == Precision::Fp8Mixed;
}

// FSDP under mixed precision keeps the sharded parameters in fp32, all-gathers 16-bit copies
// for compute and steps the optimizer on the fp32 shards: no separate master copy. torchtitan's
// FSDP2 (parallelisms: MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)) and
// accelerate's FSDP for transformers and plain loops, which upcasts 16-bit loaded weights to
// fp32 before wrapping (accelerate/accelerator.py prepare_model, "upcasted to fp32").
inline bool fsdpFp32Shards(const StageContext &c)
{
    if (!mixedMaster(c.t.precision))
        return false;
    const auto fw = c.s.framework;
    return fw == Framework::Torchtitan ||
           ((fw == Framework::Transformers || fw == Framework::Pytorch) && c.p.zeroStage >= 3 &&
            c.dp > 1);
}

inline double weightBytes(const StageContext &c)
{
    if (c.fp32 || c.amp)
        return 4;
    if (fsdpFp32Shards(c))
        return 4;
    return 2;
}

inline double gradientBytes(const StageContext &c)
{
    if (c.fp32 || c.amp)
        return 4;
    // training.optimizer_precision.gradients: Megatron's --main-grads-dtype (the main_grad
    // buffer), DeepSpeed's bf16_master_weights_and_grads.
    switch (c.t.optimizerPrecision.gradients) {
    case GradientDtype::Fp32:
        return 4;
    case GradientDtype::Bf16:
        return 2;
    case GradientDtype::Auto:
        break;
    }
    if (mixedMaster(c.t.precision) && (c.s.framework == Framework::Megatron || fsdpFp32Shards(c)))
        return 4; // Megatron's fp32 main_grad buffer; FSDP's fp32 sharded gradients
    return 2;     // DeepSpeed and plain PyTorch keep gradients in the weights' 16-bit dtype
}

// bitsandbytes 8-bit optimizers: one fp32 absmax per 2048-element block, per state; tensors
// under 4096 elements keep 32-bit states (bnb.optim.Optimizer8bit, min_8bit_size).
constexpr double blockwise8bitOverhead = 4.0 / 2048;
constexpr int64_t min8bitElements = 4096;
// Distributed Shampoo's default max_preconditioner_dim: matrices are blocked to 1024 x 1024.
constexpr int64_t shampooBlock = 1024;

// Bytes of one element of each optimizer state: the first moment (exp_avg, the momentum of
// SGD, Lion and Muon) and the second (exp_avg_sq).
struct StateBytes
{
    double first = 4, second = 4;
    // torchao's low-bit optimizers quantise a tensor only from 4096 elements on and keep smaller
    // ones in the parameter's dtype (torchao/optim/adam.py _AdamBase._new_buffer).
    bool lowBit = false;
    double small = 4;
};

// One element of a state of dtype `d`; `fallback` is what precision and optimizer imply.
// torchao's 8-bit and fp8 states carry one fp32 scale per 256-element block, its 4-bit states
// one per 128 (torchao/optim/subclass_8bit.py, subclass_4bit.py, subclass_fp8.py: block_size);
// Megatron's precision-aware optimizer (Transformer Engine's FusedAdam) scales an fp8 state per
// tensor, a negligible scalar.
inline double stateElementBytes(StateDtype d, Framework fw, double fallback)
{
    switch (d) {
    case StateDtype::Auto:
        return fallback;
    case StateDtype::Fp32:
        return 4;
    case StateDtype::Bf16:
    case StateDtype::Fp16:
        return 2;
    case StateDtype::Fp8:
        return fw == Framework::Megatron || fw == Framework::Deepspeed ? 1 : 1 + 4.0 / 256;
    case StateDtype::Int8:
        return 1 + 4.0 / 256;
    case StateDtype::Int4:
        return 0.5 + 4.0 / 128;
    }
    return fallback;
}

inline bool lowBitState(StateDtype d)
{
    return d == StateDtype::Fp8 || d == StateDtype::Int8 || d == StateDtype::Int4;
}

// The states' element bytes: fp32, except pure bf16 where plain PyTorch creates the states like
// the parameters (torch.optim.AdamW: zeros_like(param)); `fallback` overrides that default
// (PEFT's fp32 adapters); training.optimizer_precision overrides both.
inline StateBytes stateBytes(const StageContext &c, double fallback = 0)
{
    const double implied = fallback > 0 ? fallback : c.t.precision == Precision::Bf16 ? 2 : 4;
    const OptimizerPrecision &o = c.t.optimizerPrecision;
    const Framework fw = c.s.framework;
    StateBytes b;
    b.first = stateElementBytes(o.expAvg, fw, implied);
    b.second = stateElementBytes(o.expAvgSq, fw, implied);
    b.lowBit = fw != Framework::Megatron && (lowBitState(o.expAvg) || lowBitState(o.expAvgSq));
    b.small = implied;
    return b;
}

// Optimizer state bytes of one trainable tensor of `rows` x `cols` (`n` elements in all).
inline double optimizerBytes(Optimizer o, StateBytes sb, double n, int64_t rows, int64_t cols,
                             bool inLayer)
{
    const bool matrix = cols > 1;
    if (sb.lowBit && double(rows) * double(cols) < 4096)
        sb.first = sb.second = sb.small;
    switch (o) {
    case Optimizer::Sgd:
        return 0;
    case Optimizer::SgdMomentum:
    case Optimizer::Lion:
        return sb.first * n;
    case Optimizer::Adam:
    case Optimizer::Adamw:
    case Optimizer::PagedAdamw:
        return (sb.first + sb.second) * n;
    case Optimizer::Adamw8bit:
    case Optimizer::PagedAdamw8bit:
        return double(rows) * cols < min8bitElements ? 8 * n : (2 + 2 * blockwise8bitOverhead) * n;
    case Optimizer::Muon:
        // Muon keeps one momentum buffer for the hidden matrices; embeddings, head and vectors
        // go to its AdamW fallback (Jordan et al. 2024, reference implementation).
        return matrix && inLayer ? sb.first * n : (sb.first + sb.second) * n;
    case Optimizer::Adafactor: {
        // HF Adafactor without first moment: factored second moment, a row and a column vector
        // per matrix; a full second moment for vectors (Shazeer & Stern 2018, §3).
        if (!matrix)
            return 4 * n;
        const double copies = n / (double(rows) * cols);
        return 4 * double(rows + cols) * copies;
    }
    case Optimizer::Shampoo: {
        if (!matrix)
            return (sb.first + sb.second) * n;
        // Per block: left and right factors and their inverse roots, fp32; plus momentum and
        // the grafting accumulator per element.
        const double copies = n / (double(rows) * cols);
        auto blocks = [](int64_t d) { return (d + shampooBlock - 1) / shampooBlock; };
        const double br = double(std::min(rows, shampooBlock));
        const double bc = double(std::min(cols, shampooBlock));
        const double perBlock = 2 * (br * br + bc * bc) * 4;
        return copies * double(blocks(rows)) * double(blocks(cols)) * perBlock +
               (sb.first + sb.second) * n;
    }
    }
    return 0;
}

inline bool pagedOptimizer(Optimizer o)
{
    return o == Optimizer::PagedAdamw || o == Optimizer::PagedAdamw8bit;
}

// torch.optim's default foreach implementation materialises one state-sized intermediate
// (torch/optim/adamw.py _multi_tensor_adamw: exp_avg_sq_sqrt = _foreach_sqrt(...)); the fused
// Adam of DeepSpeed and Megatron (apex/TE FusedAdam) and bitsandbytes kernels do not. Measured
// on an H200 (tests/data/measured/gpu): torch.optim.AdamW (foreach) peaks at its step with
// parameters + gradients + states + one exp_avg_sq-sized copy; fused=True adds nothing; foreach
// SGD with momentum updates in place.
inline bool foreachTemporaries(const StageContext &c)
{
    const auto o = c.t.optimizer;
    switch (c.t.optimizerImplementation) {
    case OptimizerImplementation::Foreach:
        return o == Optimizer::Adam || o == Optimizer::Adamw || o == Optimizer::Lion ||
               o == Optimizer::Muon;
    case OptimizerImplementation::Fused:
    case OptimizerImplementation::ForLoop:
        return false;
    case OptimizerImplementation::Auto:
        break;
    }
    if (c.s.framework == Framework::Transformers) {
        // HF Trainer's default `optim` (src/transformers/training_args.py default_optim):
        // adamw_hf (per tensor) before 4.32, adamw_torch (torch.optim.AdamW, foreach on CUDA)
        // from 4.32 (huggingface/transformers#25109, July 2023), adamw_torch_fused under
        // torch >= 2.8 from 4.54 (#37358, July 2025). Without a release: the current one, fused.
        const FrameworkVersion &v = c.s.frameworkVersion;
        const bool torchForeach = v.given && v.atLeast(4, 32) && !v.atLeast(4, 54);
        return torchForeach && (o == Optimizer::Adam || o == Optimizer::Adamw);
    }
    // DeepSpeed's and Megatron's fused Adam.
    if (c.s.framework == Framework::Megatron || c.s.framework == Framework::Deepspeed)
        return false;
    return o == Optimizer::Adam || o == Optimizer::Adamw || o == Optimizer::Lion ||
           o == Optimizer::SgdMomentum || o == Optimizer::Muon;
}

} // namespace vramplan
