// What a stage of a model with layer kinds keeps in an inference engine: the weights of each
// kind of layer, the KV cache of the layers that attend (per token), and the recurrent state of
// the others (per sequence: a convolution window and, for Gated DeltaNet and Mamba2, the state
// matrix), as vLLM's MambaStateShapeCalculator and SGLang's Mamba2StateShape size them.

#include "serving/serving_terms.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

bool attends(Mixer mixer)
{
    return mixer == Mixer::Attention || mixer == Mixer::GlobalAttention ||
           mixer == Mixer::AttentionAndMamba;
}

bool keepsState(Mixer mixer)
{
    return mixer == Mixer::LinearAttention || mixer == Mixer::Mamba ||
           mixer == Mixer::ShortConv || mixer == Mixer::AttentionAndMamba;
}

} // namespace

// One sequence's state in one layer of the mixer on this GPU (vllm/model_executor/layers/mamba/
// mamba_utils.py): Gated DeltaNet a conv window (conv_kernel - 1) x conv_dim / tp and a state of
// value_heads / tp x key_head_dim x value_head_dim; Mamba2 a conv window over its conv width and
// a state of heads / tp x head_dim x state_size; LFM2's short conv a window of L - 1 over the
// hidden width. The conv window takes the model dtype; the state the model's state dtype
// (float32 for Qwen3.5 and Nemotron-H), and float32 in SGLang by default (--mamba-ssm-dtype).
double layerStateBytes(const ServingContext &x, Mixer mixer)
{
    const auto &m = x.m;
    const double conv = x.c;
    const double state = x.r.engine == ServingEngine::Sglang    ? 4.0
                         : m.stateElementBytes > 0 ? double(m.stateElementBytes)
                                                   : x.c;
    double bytes = 0;
    if (mixer == Mixer::LinearAttention) {
        const auto &la = m.linear;
        bytes += double(la.convKernel - 1) * double(la.convWidth()) / x.tp * conv;
        bytes += double(la.valueHeads) / x.tp * double(la.keyHeadDim) * double(la.valueHeadDim) *
                 state;
    }
    if (mixer == Mixer::Mamba || mixer == Mixer::AttentionAndMamba) {
        const auto &mb = m.mamba;
        bytes += double(mb.convKernel - 1) * double(mb.convWidth()) / x.tp * conv;
        bytes += double(mb.heads) / x.tp * double(mb.headDim) * double(mb.stateSize) * state;
    }
    if (mixer == Mixer::ShortConv)
        bytes += double(m.shortConvKernel - 1) * double(m.hiddenSize) / x.tp * conv;
    return bytes;
}

StageCache stageCache(const ServingContext &x, const StageShape &st, bool hfCache)
{
    StageCache out;
    const auto &m = x.m;
    double kvSum = 0;
    int64_t attending = 0;
    for (const auto &kind : layerKindsIn(m, st.from, st.from + st.layers)) {
        if (attends(kind.spec.mixer)) {
            attending += kind.layers;
            double perLayer = kvPerTokenPerLayer(x, hfCache);
            if (kind.spec.mixer == Mixer::GlobalAttention && m.globalHeadDim > 0) {
                // Gemma 4's global layers: their own head width and key/value heads; with
                // attention_k_eq_v the keys serve as values, and vLLM still caches both.
                const double heads = std::max(
                    1.0, std::floor(double(m.globalKvHeads > 0 ? m.globalKvHeads : m.kvHeads) /
                                    x.tp));
                perLayer = 2.0 * heads * double(m.globalHeadDim) * x.r.kvElementBytes;
            }
            kvSum += perLayer * double(kind.layers);
        }
        if (keepsState(kind.spec.mixer)) {
            const double bytes = layerStateBytes(x, kind.spec.mixer);
            out.state += kind.layers;
            out.statePerLayer = std::max(out.statePerLayer, bytes);
            out.statePerSequence += bytes * double(kind.layers);
        }
    }
    // Sliding-window layers among those that attend: the model's share of them.
    const double slidingShare =
        m.slidingWindow > 0 && m.layers > 0 ? double(m.slidingLayers) / double(m.layers) : 0.0;
    out.sliding = std::min(attending, int64_t(std::llround(slidingShare * double(st.layers))));
    out.full = attending - out.sliding;
    out.kvPerLayer = attending > 0 ? kvSum / double(attending) : 0.0;
    return out;
}

void planRecurrentCache(const ServingContext &x, const StageCache &cache, double available,
                        ServingPlan &p)
{
    const auto &r = x.r;
    const double maxLen = double(r.maxModelLen);
    const double kvPerToken = cache.kvPerLayer * double(cache.full + cache.sliding);
    if (r.engine == ServingEngine::Sglang) {
        // SGLang (model_runner_kv_cache_mixin.py handle_max_mamba_cache): the memory left after
        // the weights splits r : 1 between the state pool and the KV pool (--mamba-full-memory-
        // ratio 0.9); the state pool's slots are requests of any length, a third of them running.
        constexpr double ratio = 0.9;
        const double statePool = available * ratio / (1 + ratio);
        const double kvPool = available - statePool;
        const double slots =
            cache.statePerSequence > 0 ? std::floor(statePool / cache.statePerSequence) : 0;
        p.kvCacheTokens =
            kvPerToken > 0 ? int64_t(std::min(4.0e18, std::floor(kvPool / kvPerToken))) : 0;
        p.kvCacheBytes = available;
        p.kvBlocks = int64_t(slots);
        const double byTokens =
            kvPerToken > 0 && maxLen > 0 ? double(p.kvCacheTokens) / maxLen : slots;
        p.maxConcurrency = std::min(byTokens, std::floor(slots / 3));
        p.longestRequest = p.kvCacheTokens;
        return;
    }
    // vLLM's hybrid allocator (platforms/interface.py _align_hybrid_block_size; earlier
    // HybridAttentionMambaModelConfig): the attention block grows, in steps of 16 tokens, until
    // one page holds a layer's state, and the state's page is padded to it; layers go into
    // groups of the smallest bucket's size (kv_cache_utils.py
    // _get_kv_cache_groups_uniform_page_size), each block a page in one layer of every group. A
    // request holds its tokens' blocks in each attention group and one block in each state group
    // (mamba_cache_mode "none": no prefix caching).
    constexpr double align = 16;
    double bs = double(r.blockSize);
    if (cache.kvPerLayer > 0 && cache.statePerLayer > 0)
        bs = std::max(bs, align * std::ceil(cache.statePerLayer / (align * cache.kvPerLayer)));
    const double page = cache.kvPerLayer > 0 ? bs * cache.kvPerLayer : cache.statePerLayer;
    int64_t smallest = 0, largest = 0;
    for (int64_t bucket : {cache.full, cache.sliding, cache.state})
        if (bucket > 0) {
            smallest = smallest == 0 ? bucket : std::min(smallest, bucket);
            largest = std::max(largest, bucket);
        }
    const int64_t groupSize =
        double(largest) < 1.5 * double(smallest) ? largest : std::max<int64_t>(1, smallest);
    const auto groupsOf = [groupSize](int64_t layers) {
        return double((layers + groupSize - 1) / groupSize);
    };
    const double fullGroups = groupsOf(cache.full), slidingGroups = groupsOf(cache.sliding),
                 stateGroups = groupsOf(cache.state);
    p.kvGroups = int64_t(fullGroups + slidingGroups + stateGroups);
    p.settings.blockSize = int64_t(bs);
    const double blockBytes = page * double(groupSize);
    if (!(blockBytes > 0))
        return;
    const double blocks = std::floor(available / blockBytes);
    p.kvBlocks = int64_t(std::min(4.0e18, blocks));
    p.kvCacheBytes = blocks * blockBytes;
    const double slidingTokens =
        std::min(double(x.m.slidingWindow) - 1 + double(r.maxNumBatchedTokens), maxLen);
    const double slidingBlocks = slidingGroups * (std::ceil(slidingTokens / bs) + 1);
    const double perRequest = fullGroups * std::ceil(maxLen / bs) + slidingBlocks + stateGroups;
    p.maxConcurrency = perRequest > 0 ? blocks / perRequest : 0.0;
    // vLLM reports tokens as max_concurrency x max_model_len (get_max_concurrency_for_kv_cache).
    p.kvCacheTokens = int64_t(std::min(4.0e18, std::floor(p.maxConcurrency * maxLen)));
    p.longestRequest =
        fullGroups > 0
            ? int64_t(std::max(0.0, std::floor((blocks - slidingBlocks - stateGroups) / fullGroups) *
                                        bs))
            : p.kvCacheTokens;
}

double kindsWeightBytes(const ServingContext &x, const StageShape &st, const GpuConfig &gpu)
{
    double bytes = 0;
    for (const auto &kind : layerKindsIn(x.m, st.from, st.from + st.layers))
        bytes += layerWeightBytes(x, layerWeights(x.m, kind.spec), gpu) * double(kind.layers);
    return bytes;
}

double visionWeightBytes(const ServingContext &x, const StageShape &st)
{
    if (!st.first)
        return 0;
    double bytes = 0;
    // Unquantised; its linears split across tensor-parallel ranks like the language model's
    // (vLLM's default mm_encoder_tp_mode "weights").
    for (const auto &t : visionWeights(x.m))
        bytes += double(t.elements()) * x.c / x.tp;
    return bytes;
}

} // namespace vramplan
