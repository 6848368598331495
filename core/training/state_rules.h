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

// Bytes of one optimizer-state element: fp32, except pure bf16 where plain PyTorch creates the
// states like the parameters (torch.optim.AdamW: zeros_like(param)).
inline double stateBytes(const StageContext &c)
{
    return c.t.precision == Precision::Bf16 ? 2 : 4;
}

// Optimizer state bytes of one trainable tensor of `rows` x `cols` (`n` elements in all).
inline double optimizerBytes(Optimizer o, double sb, double n, int64_t rows, int64_t cols,
                             bool inLayer)
{
    const bool matrix = cols > 1;
    switch (o) {
    case Optimizer::Sgd:
        return 0;
    case Optimizer::SgdMomentum:
    case Optimizer::Lion:
        return sb * n;
    case Optimizer::Adam:
    case Optimizer::Adamw:
    case Optimizer::PagedAdamw:
        return 2 * sb * n;
    case Optimizer::Adamw8bit:
    case Optimizer::PagedAdamw8bit:
        return double(rows) * cols < min8bitElements ? 8 * n : (2 + 2 * blockwise8bitOverhead) * n;
    case Optimizer::Muon:
        // Muon keeps one momentum buffer for the hidden matrices; embeddings, head and vectors
        // go to its AdamW fallback (Jordan et al. 2024, reference implementation).
        return matrix && inLayer ? sb * n : 2 * sb * n;
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
            return 2 * sb * n;
        // Per block: left and right factors and their inverse roots, fp32; plus momentum and
        // the grafting accumulator per element.
        const double copies = n / (double(rows) * cols);
        auto blocks = [](int64_t d) { return (d + shampooBlock - 1) / shampooBlock; };
        const double br = double(std::min(rows, shampooBlock));
        const double bc = double(std::min(cols, shampooBlock));
        const double perBlock = 2 * (br * br + bc * bc) * 4;
        return copies * double(blocks(rows)) * double(blocks(cols)) * perBlock + 2 * sb * n;
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
    // HF Trainer's default optimizer is per-tensor (adamw_hf) or fused (adamw_torch_fused).
    if (c.s.framework == Framework::Megatron || c.s.framework == Framework::Deepspeed ||
        c.s.framework == Framework::Transformers)
        return false;
    return o == Optimizer::Adam || o == Optimizer::Adamw || o == Optimizer::Lion ||
           o == Optimizer::SgdMomentum || o == Optimizer::Muon;
}

} // namespace vramplan
