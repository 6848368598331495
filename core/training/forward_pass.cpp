// Inference without a serving engine (training.mode inference, no `serving` section): one
// forward pass of a batch with its KV cache, as transformers' generate runs it.

#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {
namespace {

// The inference KV cache of one micro-batch. Grouped heads are stored as they are. Sliding-
// window (and Llama 4's chunked) layers keep at most their window (transformers'
// DynamicSlidingWindowLayer / vLLM's sliding-window manager); the stage's share of them is the
// model's. Multi-head latent attention: engines that cache the latent (vLLM, SGLang,
// Megatron) keep kv_lora_rank + rope dim per token and layer (DeepSeek-V2 §2.1.2); transformers'
// DeepseekV3Attention caches the decompressed per-head keys (nope + rope) and values.
void addKvCache(const StageContext &c, ItemSink &out)
{
    const double tp = double(c.tp);
    const double s = double(c.t.sequenceLength) / double(c.cp);
    const double b = double(c.t.microBatchSize);
    const unsigned fwd = phaseBit(Phase::Forward);
    const double L = double(c.stageLayers);
    const double slidingShare =
        c.m.slidingWindow > 0 ? double(c.m.slidingLayers) / double(c.m.layers) : 0.0;
    const double windowTokens = std::min(s, double(c.m.slidingWindow));
    if (c.m.isMla()) {
        const auto &mla = c.m.mla;
        if (c.hfModelCode())
            out.add(Component::Activations, "KV cache (decompressed per-head keys and values)",
                    "b*s*a*(nope + rope + v)*c per layer (transformers DeepseekV3Attention)",
                    "transformers DynamicCache",
                    b * s * double(c.m.attentionHeads) / tp *
                        double(mla.qkHeadDim() + mla.vHeadDim) * c.act,
                    L, fwd);
        else
            out.add(Component::Activations, "KV cache (compressed latent and rope key)",
                    "b*s*(kv_lora_rank + rope)*c per layer", "DeepSeek-V2 §2.1.2",
                    b * s * double(mla.kvLoraRank + mla.qkRopeHeadDim) * c.act, L, fwd);
        return;
    }
    // K and V per layer, grouped heads kept as they are (the cache stores kv heads).
    const double kvWidth = std::max(double(c.m.kvHeads * c.m.headDim) / tp, double(c.m.headDim));
    const double perToken = 2 * b * kvWidth * c.act;
    out.add(Component::Activations, "KV cache", "2 * b * s * kv * d * c per layer",
            "Pope et al. 2022 §2", perToken * s, L * (1 - slidingShare), fwd);
    out.add(Component::Activations, "KV cache of sliding-window layers",
            "2 * b * min(s, window) * kv * d * c per layer", "transformers sliding-window cache",
            perToken * windowTokens, L * slidingShare, fwd);
}

} // namespace

void addInference(const StageContext &c, ItemSink &out)
{
    const double tp = double(c.tp);
    double weights = 0;
    for (const auto &group : c.layerGroups())
        for (const auto &t : *group.weights) {
            double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
            if (t.place == WeightPlace::Expert)
                n /= double(c.ep);
            const int64_t bits = c.t.finetune.baseWeightBits;
            const double bytes = !c.full && t.quantizable && bits < 16
                                     ? (bits == 4 ? 0.5 + 1.0 / 64 : 1.0)
                                     : (c.fp32 ? 4.0 : 2.0);
            weights += n * group.count * bytes;
        }
    for (const auto &t : c.globals) {
        const bool onStage = t.place == WeightPlace::Embedding ? c.hasEmbedding : c.hasHead;
        if (onStage)
            weights += double(t.elements()) / (t.tensorParallel ? tp : 1.0) * (c.fp32 ? 4.0 : 2.0);
    }
    const unsigned fwd = phaseBit(Phase::Forward);
    out.add(Component::Parameters, "weights", "elements * bytes per weight", "SPEC §2", weights, 1,
            fwd);
    addKvCache(c, out);
    const double ffn = double(c.m.isMoe() ? c.m.moe.expertFfnHiddenSize : c.m.ffnHiddenSize) / tp;
    double working = c.tokens * (4 * double(c.m.hiddenSize) + 3 * ffn) * c.act;
    if (c.t.attention == Attention::Eager)
        working += double(c.t.microBatchSize) * double(c.m.attentionHeads) / tp *
                   double(c.t.sequenceLength) * double(c.t.sequenceLength) / double(c.cp) *
                   (4 + c.act);
    out.add(Component::Temporary, "working activations of one layer (prefill)",
            "b*s*(4h + 3f)*c (+ b*a*s^2*(4+c) eager)", "forward pass", working, 1, fwd);
    if (c.hasHead && c.m.head == Head::LanguageModel)
        out.add(Component::LogitsAndLoss, "next-token logits", "b*V*(c + 4)", "generation",
                double(c.t.microBatchSize) * double(c.m.vocabSize) * (c.act + 4), 1, fwd);
}

} // namespace vramplan
