// The copies of the weights that compute makes beside them: autocast's 16-bit casts, routers
// cast to fp32, expert slices, 4-bit matrices dequantised for their matmul, Transformer
// Engine's fp8 caches (SPEC §2, the weight-related "temporary" buffers).

#include "training/model_states.h"

#include <algorithm>
#include <cmath>

namespace vramplan {

void addWeightCopies(const StageContext &c, const StatesSetup &k, const StateTotals &totals,
                     ItemSink &out)
{
    const double tp = k.tp;
    const bool z3 = k.z3;
    const auto fw = k.fw;
    const bool headQuantised = k.headQuantised;
    const LocalSizes &size = totals.size;
    const double largestQuantised = totals.largestQuantised;
    constexpr auto T = Component::Temporary;
    if (c.amp && !z3 && !base16BitUnderAutocast(c)) {
        // autocast casts each fp32 weight to 16 bits, and linear saves the copy for backward
        // (torch/amp/autocast_mode.py). A trainable weight's copy is cached for the whole
        // region; a frozen one (LoRA) is cast again on every call (the cache takes only leaves
        // that require grad), so LitGPT's LoRA scripts, which run the head in chunks of 128
        // tokens (model(input_ids, lm_head_chunk_size=128)), keep one head copy per chunk.
        // bitsandbytes' 4-bit linears dequantise inside their own matmul and keep no copy.
        const bool headPerChunk = !c.full && fw == Framework::Litgpt;
        const double headCopies =
            headPerChunk ? std::ceil(double(c.t.sequenceLength) / 128.0) : 1.0;
        const double castElements =
            (c.qlora ? 0.0 : size.linear) +
            (c.hasHead && !headQuantised ? double(c.m.vocabSize) * c.m.hiddenSize / tp * headCopies
                                         : 0);
        out.add(T, "autocast 16-bit weight copies",
                headPerChunk ? "(linear + head * ceil(s/128)) elements * 2"
                             : "linear weight elements * 2",
                "torch.autocast cached_cast", castElements * 2, 1,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
    }
    const Family f = c.m.family;
    if (c.m.isMoe() && c.hfModelCode() && !c.fp32 && !c.amp && // autocast's cast otherwise
        (f == Family::DeepseekV3 || f == Family::DeepseekV2 || f == Family::Glm4Moe ||
         f == Family::KimiLinear)) // KimiMoEGate too
        // DeepSeek's router runs F.linear(x.float(), weight.float()): each MoE layer keeps an
        // fp32 copy of its router weight for backward (modeling_deepseek_v3.py
        // DeepseekV3TopkRouter; CPU-measured, tests/data/measured detail.weight_copies_bytes).
        out.add(T, "router weights cast to fp32 (kept for backward)", "E*h*4 per MoE layer",
                "transformers DeepseekV3TopkRouter.forward",
                double(c.m.moe.experts) * double(c.m.hiddenSize) * 4, c.mainLayers * c.inFlight,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
    if (c.m.isMoe() && c.amp && c.hfModelCode() && f == Family::GptOss) {
        // GptOssExperts multiplies by self.gate_up_proj[e] and self.down_proj[e]: slices are not
        // leaves, so autocast casts them on every call instead of caching, and the matmul keeps
        // the 16-bit copy for backward: every expert a token reached, in every MoE layer
        // (CPU-measured, tests/data/measured detail.weight_copies_bytes).
        const double experts = std::min(double(c.m.moe.experts) / double(c.ep),
                                         c.tokens * double(c.m.moe.expertsPerToken));
        const double ffn = double(c.m.moe.expertFfnHiddenSize > 0 ? c.m.moe.expertFfnHiddenSize
                                                                  : c.m.ffnHiddenSize);
        out.add(T, "expert weight slices cast by autocast (kept for backward)",
                "experts reached * 3*h*f*2 per MoE layer", "transformers GptOssExperts.forward",
                experts * 3 * double(c.m.hiddenSize) * ffn / double(c.tp) * 2,
                c.mainLayers * c.inFlight,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
    }
    if (c.qlora)
        // MatMul4Bit dequantises its weight to 16 bits for each call, forward and backward, and
        // frees it after the matmul (bitsandbytes/autograd/_functions.py): one matrix at a time.
        out.add(T, "4-bit weight dequantised for its matmul", "largest 4-bit matrix * 2",
                "bitsandbytes MatMul4Bit; torchao linear_nf4", largestQuantised * 2, 1,
                computePhases);
    if (c.t.precision == Precision::Fp8Mixed && fw != Framework::Torchtitan)
        // Transformer Engine caches an fp8 copy and its transpose of every GEMM weight.
        out.add(T, "fp8 weight copies and transposes", "linear weight elements * 2",
                "Transformer Engine Float8 weight cache", size.linear * 2, 1, steadyPhases);
}

} // namespace vramplan
