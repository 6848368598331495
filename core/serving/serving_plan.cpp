// The plan of one pipeline stage and of the scenario: the KV cache as what remains of the
// engine's budget after the other terms, in blocks, tokens and requests, and the engine's
// message when it does not start (docs/serving.md; tests/data/measured/serving_logs*.json).

#include "serving/serving_terms.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace vramplan {
namespace {

constexpr double maxBytes = 4.0e18;

double finite(double v)
{
    if (!std::isfinite(v))
        return v > 0 ? maxBytes : (v < 0 ? -maxBytes : 0.0);
    return std::clamp(v, -maxBytes, maxBytes);
}

int64_t toCount(double v)
{
    if (!std::isfinite(v) || v <= 0)
        return 0;
    return int64_t(std::min(v, 4.0e18));
}

// vLLM's split of layers over pipeline stages (vllm/distributed/utils.py get_pp_indices): each
// stage gets L / pp, and the remainder goes to the stages before the last, one each.
StageShape stageShape(int64_t layers, int64_t pp, int stage)
{
    StageShape out;
    pp = std::max<int64_t>(1, pp);
    const int64_t base = layers / pp, rem = layers % pp;
    auto count = [&](int64_t k) {
        return base + ((k >= pp - 1 - rem && k <= pp - 2) ? 1 : 0);
    };
    for (int64_t k = 0; k < stage; ++k)
        out.from += count(k);
    out.layers = count(stage);
    out.first = stage == 0;
    out.last = stage == pp - 1;
    return out;
}

} // namespace

double kvPerTokenPerLayer(const ServingContext &x, bool hfCache)
{
    const auto &m = x.m;
    const double e = x.r.kvElementBytes;
    if (m.isMla()) {
        const bool sparse = m.indexer.heads > 0;
        const double indexDim = double(m.indexer.headDim);
        // transformers' DeepseekV3Attention caches decompressed per-head keys and values;
        // DeepseekV32Attention too, and its indexer's keys in the model dtype (update_indexer).
        if (hfCache)
            return double(m.attentionHeads) / x.tp * double(m.mla.qkHeadDim() + m.mla.vHeadDim) *
                       e +
                   (sparse ? indexDim * e : 0.0);
        // vLLM MLAAttentionSpec / SGLang MLATokenToKVPool: the kv_lora_rank latent plus the
        // rope key, one copy per token (not split by TP) (DeepSeek-V2 §2.1.2).
        double bytes = double(m.mla.kvLoraRank + m.mla.qkRopeHeadDim) * e;
        if (sparse) {
            const double lora = double(m.mla.kvLoraRank);
            // An fp8 cache of DeepSeek sparse attention is FlashMLA's fp8_ds_mla record: the
            // latent in fp8 with an fp32 scale per 128, the rope key in bf16 (656 bytes for
            // V3.2; vLLM config.py DeepseekV32ForCausalLM, SGLang NSATokenToKVPool).
            if (e < 2)
                bytes = lora + std::ceil(lora / 128) * 4 + double(m.mla.qkRopeHeadDim) * 2;
            // The lightning indexer's key cache beside it, in every engine: fp8 keys with an
            // fp32 scale per 128 (vLLM DeepseekV32IndexerCache, head_size index_head_dim +
            // index_head_dim / 128 * 4 = 132 bytes for V3.2, uint8; SGLang's index_k buffer).
            bytes += indexDim + std::ceil(indexDim / 128) * 4;
        }
        return bytes;
    }
    // K and V of the kv heads on this GPU; with fewer kv heads than TP ranks each rank keeps
    // one replicated head (vLLM ModelConfig.get_num_kv_heads: max(1, kv_heads // tp)).
    const double heads = std::max(1.0, std::floor(double(m.kvHeads) / x.tp));
    return 2.0 * heads * double(m.headDim) * e;
}

namespace {

ServingPlan planStage(const ServingContext &x, int stage, const GpuConfig &gpu)
{
    const auto &m = x.m;
    const auto &r = x.r;
    ServingPlan p;
    p.present = true;
    p.settings = r;
    p.stage = stage;
    const StageShape st = stageShape(m.layers, x.s.parallelism.pipelineParallel, stage);
    p.stageLayers = st.layers;
    const int64_t moeLayers = m.isMoe() ? m.moeLayersIn(st.from, st.from + st.layers) : 0;
    const int64_t denseLayers = st.layers - moeLayers;

    // Weights (a vision-language model's tower on the first stage).
    const bool plan = m.hasLayerPlan();
    double weights = globalWeightBytes(x, st) + ropeCacheBytes(x);
    if (plan) {
        weights += kindsWeightBytes(x, st, gpu);
    } else {
        const WeightList main = layerWeights(m);
        const double mainBytes = layerWeightBytes(x, main, gpu);
        if (m.isMoe()) {
            const WeightList dense = layerWeights(m, LayerKind::Dense);
            weights += mainBytes * double(moeLayers) +
                       layerWeightBytes(x, dense, gpu) * double(denseLayers);
        } else {
            weights += mainBytes * double(st.layers);
        }
    }
    p.weightsBytes = weights + visionWeightBytes(x, st);

    // KV layout: full-attention and sliding-window layers of this stage (spread evenly); with
    // layer kinds, only the layers that attend, and the recurrent state of the others.
    const bool hf = r.engine == ServingEngine::Transformers;
    double perLayer = kvPerTokenPerLayer(x, hf);
    const double slidingShare =
        m.slidingWindow > 0 && m.layers > 0 ? double(m.slidingLayers) / double(m.layers) : 0.0;
    int64_t sliding = std::llround(slidingShare * double(st.layers));
    int64_t full = st.layers - sliding;
    StageCache cache;
    if (plan) {
        cache = stageCache(x, st, hf);
        perLayer = cache.kvPerLayer;
        sliding = cache.sliding;
        full = cache.full;
        p.stateBytesPerSequence = cache.statePerSequence;
    }
    p.kvBytesPerToken = perLayer * double(plan ? full + sliding : st.layers);

    p.cudaTotalBytes = cudaTotalBytes(gpu);
    const double tp = x.tp;
    const double nonTorch = nonTorchOneGpu + (tp > 1 || x.s.parallelism.pipelineParallel > 1
                                                  ? nonTorchTensorParallel
                                                  : 0.0);
    p.cudaGraphBytes = cudaGraphBytes(x, st.layers);
    const double maxLen = double(r.maxModelLen);

    if (hf) {
        // transformers generate: weights, the cache of batch x (prompt + new tokens) (static:
        // max_cache_len for every sequence), and the prefill's transient; no budget.
        const double batch = double(x.s.training.microBatchSize);
        const double prompt = double(x.s.training.sequenceLength);
        const double length = x.s.serving.cache == GenerateCache::Static && x.s.serving.maxModelLen > 0
                                  ? double(x.s.serving.maxModelLen)
                                  : prompt + double(x.s.serving.maxNewTokens);
        const double window = m.slidingWindow > 0 ? std::min(length, double(m.slidingWindow)) : length;
        p.kvCacheBytes = batch * perLayer * (double(full) * length + double(sliding) * window) +
                         batch * cache.statePerSequence;
        p.kvCacheTokens = toCount(batch * length);
        p.maxConcurrency = batch;
        p.activationBytes = activationPeak(x, batch * prompt, batch, st.last, true);
        p.budgetBytes = std::max(0.0, gpu.memoryGiB) * GiB - contextBytes(gpu);
        p.longestRequest = toCount(length);
        if (p.weightsBytes + p.kvCacheBytes + p.activationBytes > p.budgetBytes)
            p.status = ServingStatus::OutOfMemory;
        return p;
    }

    double available = 0;
    if (r.engine == ServingEngine::Vllm) {
        // vllm/v1/worker/gpu_worker.py determine_available_memory: requested_memory =
        // total x gpu_memory_utilization; non_kv_cache_memory = weights + torch activation
        // peak + non-torch increase (vllm/utils MemoryProfilingResult); the rest is the KV
        // cache.
        p.activationBytes = activationPeak(x, double(r.maxNumBatchedTokens),
                                           double(std::min(r.maxNumSeqs, r.maxNumBatchedTokens)),
                                           st.last, false);
        p.nonTorchBytes = nonTorch;
        p.budgetBytes = r.utilization * p.cudaTotalBytes;
        // From 0.21 the profiler's CUDA-graph estimate comes out of the budget too
        // (available_kv_cache_memory_bytes = requested - non_kv_cache - cudagraph estimate).
        p.cudaGraphEstimateBytes = cudaGraphEstimate(x, st.layers);
        available = p.budgetBytes - p.weightsBytes - p.activationBytes - p.nonTorchBytes -
                    p.cudaGraphEstimateBytes;
    } else {
        // SGLang model_runner.py profile_max_num_token: rest = free after loading - free at
        // start x (1 - mem_fraction_static), free at start being the total less the CUDA
        // context (and NCCL with TP): the KV pool is fraction x free at start - weights.
        // Activations, CUDA graphs and the rest live in the (1 - fraction) left over.
        const double freeAtStart = p.cudaTotalBytes - contextBytes(gpu) -
                                   (tp > 1 ? nonTorchTensorParallel : 0.0);
        p.budgetBytes = r.utilization * freeAtStart;
        p.activationBytes = activationPeak(x, double(r.maxNumBatchedTokens),
                                           double(std::min(r.maxNumSeqs, r.maxNumBatchedTokens)),
                                           st.last, false);
        p.nonTorchBytes = nonTorch;
        available = p.budgetBytes - p.weightsBytes;
    }

    if (cache.state > 0) {
        if (available <= 0) {
            p.kvCacheBytes = finite(available);
            p.status = ServingStatus::NoKvMemory;
            return p;
        }
        planRecurrentCache(x, cache, available, p);
        if (p.maxConcurrency < 1.0)
            p.status = ServingStatus::BelowOneRequest;
        return p;
    }

    // Whole blocks. vLLM's hybrid allocator (v1/core/kv_cache_utils.py) puts full-attention
    // and sliding-window layers into groups of the smaller count; each block id holds one page
    // in one layer of every group, so blocks = available / (page x group size) and the tokens
    // it reports are blocks / groups x block_size. SGLang's pool counts tokens (page size 1).
    const double bs = double(r.blockSize);
    const double page = bs * perLayer;
    int64_t groupSize = st.layers, groups = 1;
    if (r.engine == ServingEngine::Vllm && full > 0 && sliding > 0) {
        groupSize = std::min(full, sliding);
        groups = (full + groupSize - 1) / groupSize + (sliding + groupSize - 1) / groupSize;
    }
    p.kvGroups = groups;
    const double blockBytes = page * double(std::max<int64_t>(1, groupSize));
    if (available <= 0 || !(blockBytes > 0)) {
        p.kvCacheBytes = finite(available);
        p.status = ServingStatus::NoKvMemory;
        return p;
    }
    p.kvBlocks = toCount(std::floor(available / blockBytes));
    p.kvCacheBytes = double(p.kvBlocks) * blockBytes;
    p.kvCacheTokens = toCount(double(p.kvBlocks / groups) * bs);
    // Blocks one request of max_model_len needs: every full layer group holds max_model_len,
    // a sliding group at most window - 1 + max_num_batched_tokens tokens and one more block
    // (vLLM SlidingWindowSpec.max_memory_usage_bytes).
    const double fullGroups = groups == 1 ? 1.0 : std::ceil(double(full) / double(groupSize));
    const double slidingGroups = groups == 1 ? 0.0 : double(groups) - fullGroups;
    const double slidingTokens =
        std::min(double(m.slidingWindow) - 1 + double(r.maxNumBatchedTokens), maxLen);
    const double slidingBlocks = slidingGroups * (std::ceil(slidingTokens / bs) + 1);
    const double blocksPerRequest = fullGroups * std::ceil(maxLen / bs) + slidingBlocks;
    p.maxConcurrency = blocksPerRequest > 0 ? double(p.kvBlocks) / blocksPerRequest : 0.0;
    if (r.engine == ServingEngine::Sglang)
        p.maxConcurrency = maxLen > 0 ? double(p.kvCacheTokens) / maxLen : 0.0;
    // vLLM estimate_max_model_len: the longest request whose blocks fit (the full-attention
    // groups grow with the length, the sliding ones do not).
    p.longestRequest =
        fullGroups > 0 && r.engine == ServingEngine::Vllm
            ? toCount(std::floor((double(p.kvBlocks) - slidingBlocks) / fullGroups) * bs)
            : p.kvCacheTokens;
    if (p.maxConcurrency < 1.0)
        p.status = ServingStatus::BelowOneRequest;
    return p;
}

std::string gib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", bytes / GiB);
    return text;
}

} // namespace

ServingPlan planServing(const Scenario &s)
{
    if (!s.serving.present || s.training.mode != Mode::Inference)
        return {};
    ServingContext x{s, s.model, resolveServing(s)};
    x.c = s.training.precision == Precision::Fp32 ? 4.0 : 2.0;
    x.tp = double(std::max<int64_t>(1, s.parallelism.tensorParallel));
    x.ep = double(std::max<int64_t>(1, s.parallelism.expertParallel));
    ServingPlan best = planStage(x, 0, s.gpu);
    const int64_t pp = std::max<int64_t>(1, s.parallelism.pipelineParallel);
    if (pp > 1) {
        // The engine sizes every worker's cache to the smallest (vLLM V1 unifies num_blocks
        // across workers): report the stage with the fewest KV tokens.
        ServingPlan last = planStage(x, int(pp - 1), s.gpu);
        if (last.kvCacheBytes < best.kvCacheBytes)
            best = last;
    }
    for (double *v : {&best.weightsBytes, &best.activationBytes, &best.nonTorchBytes,
                      &best.cudaGraphBytes, &best.cudaGraphEstimateBytes, &best.kvCacheBytes, &best.kvBytesPerToken,
                      &best.budgetBytes, &best.cudaTotalBytes})
        *v = finite(*v);
    if (!std::isfinite(best.maxConcurrency))
        best.maxConcurrency = 0;
    return best;
}

std::string servingFailureText(const ServingPlan &p)
{
    const auto &r = p.settings;
    switch (p.status) {
    case ServingStatus::Ok:
        return {};
    case ServingStatus::NoKvMemory:
        if (r.engine == ServingEngine::Sglang)
            return "SGLang: Not enough memory. Please try to increase --mem-fraction-static. "
                   "(the weights take " +
                   gib(p.weightsBytes) + " GiB of a " + gib(p.budgetBytes) + " GiB pool)";
        return "vLLM: No available memory for the cache blocks (" + gib(p.kvCacheBytes) +
               " GiB left after weights, activations and non-torch memory). Try increasing "
               "`gpu_memory_utilization` when initializing the engine.";
    case ServingStatus::BelowOneRequest: {
        const double needed = p.kvBytesPerToken * double(r.maxModelLen);
        if (r.engine == ServingEngine::Sglang)
            return "SGLang: the KV pool holds " + std::to_string(p.kvCacheTokens) +
                   " tokens, fewer than one request of context length " +
                   std::to_string(r.maxModelLen);
        return "vLLM: To serve at least one request with the models's max seq len (" +
               std::to_string(r.maxModelLen) + "), (" + gib(needed) +
               " GiB KV cache is needed, which is larger than the available KV cache memory (" +
               gib(p.kvCacheBytes) + " GiB). Based on the available memory, the estimated "
               "maximum model length is " +
               std::to_string(p.longestRequest) +
               ". Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
               "initializing the engine.";
    }
    case ServingStatus::OutOfMemory:
        return "transformers generate: CUDA out of memory (weights " + gib(p.weightsBytes) +
               " GiB, KV cache " + gib(p.kvCacheBytes) + " GiB, forward " +
               gib(p.activationBytes) + " GiB)";
    }
    return {};
}

} // namespace vramplan
