// The engines' allocation, term by term (docs/serving.md). Each term names its source: the
// engine file it follows, or the published start-up logs it was checked against
// (tests/data/measured/serving_logs*.json).

#include "serving.h"

#include "model_weights.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace vramplan {
namespace {

constexpr double MiB = 1024.0 * 1024.0;
constexpr double GiB = 1024.0 * MiB;
constexpr double maxBytes = 4.0e18;

double finite(double v)
{
    if (!std::isfinite(v))
        return v > 0 ? maxBytes : (v < 0 ? -maxBytes : 0.0);
    return std::clamp(v, -maxBytes, maxBytes);
}

double roundUp(double v, double to)
{
    return to > 0 ? std::ceil(v / to) * to : v;
}

int64_t toCount(double v)
{
    if (!std::isfinite(v) || v <= 0)
        return 0;
    return int64_t(std::min(v, 4.0e18));
}

bool largeGpu(const GpuConfig &gpu, double total)
{
    // vllm/engine/arg_utils.py get_batch_defaults: GPUs of >= 70 GiB other than the A100 get
    // the larger batch defaults (PR #17885: the A100 loses throughput with them).
    std::string name = gpu.name + " " + gpu.preset;
    for (char &ch : name)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return total >= 70 * GiB && name.find("a100") == std::string::npos;
}

// The bytes one stored element of a linear weight takes under a quantization, scales and
// zero points included.
double quantizedBytes(WeightQuantization q, int64_t rows)
{
    switch (q) {
    case WeightQuantization::Fp8:
        // fp8 e4m3 plus one fp32 weight_scale_inv per 128 x 128 block (vLLM fp8.py
        // Fp8LinearMethod with weight_block_size; DeepSeek-V3 and Qwen3 FP8 checkpoints).
        return 1.0 + 4.0 / (128.0 * 128.0);
    case WeightQuantization::Awq:
        // qweight: eight 4-bit values per int32; scales fp16 and qzeros 4-bit packed, one per
        // group of 128 inputs and output (vLLM awq.py / awq_marlin.py, group_size 128).
        return 0.5 + 2.0 / 128 + 0.5 / 128;
    case WeightQuantization::Gptq:
        // As AWQ, plus g_idx: one int32 per input feature (vLLM gptq.py create_weights).
        return 0.5 + 2.0 / 128 + 0.5 / 128 + (rows > 0 ? 4.0 / double(rows) : 0.0);
    case WeightQuantization::Bitsandbytes:
        // NF4 in blocks of 64 with double-quantised absmax (bitsandbytes Linear4bit; vLLM
        // bitsandbytes.py loads the 4-bit checkpoints as stored).
        return 0.5 + 1.0 / 64 + 4.0 / (64.0 * 256.0);
    case WeightQuantization::Mxfp4:
        // fp4 e2m1, two per byte, plus one e8m0 scale per 32 (vLLM mxfp4.py create_weights).
        return 0.5 + 1.0 / 32;
    case WeightQuantization::None:
        break;
    }
    return 2.0;
}

struct StageShape
{
    int64_t layers = 0, from = 0;
    bool first = true, last = true;
};

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

struct Ctx
{
    const Scenario &s;
    const ModelConfig &m;
    ResolvedServing r;
    double c = 2; // bytes of a weight and activation element (the model dtype)
    double tp = 1, ep = 1;
};

// Weights of one layer of a kind on this GPU, as the engine stores them.
double layerWeightBytes(const Ctx &x, const WeightList &list, const GpuConfig &gpu)
{
    const auto q = x.s.serving.quantization;
    const auto &m = x.m;
    double bytes = 0;
    for (const auto &t : list) {
        const bool expert = t.place == WeightPlace::Expert;
        double n = double(t.elements());
        if (expert && x.ep > 1)
            n /= x.ep; // expert parallelism: whole experts per rank
        else if (t.tensorParallel)
            n /= x.tp;
        bool quantized = t.quantizable && q != WeightQuantization::None;
        // MXFP4 (gpt-oss): only the experts are quantised; attention, router, embeddings and
        // head stay bf16 (the checkpoint's modules_to_not_convert; vLLM Mxfp4Config returns
        // UnquantizedLinearMethod for every linear layer).
        if (q == WeightQuantization::Mxfp4 && !expert)
            quantized = false;
        double perElement = quantized ? quantizedBytes(q, t.rows) : x.c;
        if (expert && q == WeightQuantization::Mxfp4) {
            // Marlin's MoE kernel (Ampere, Ada, and Hopper without triton_kernels) needs
            // n % 256 and k % 128: the intermediate size is padded to 128 and the hidden size
            // to 256; Blackwell's FlashInfer backends pad both to 256 (vLLM mxfp4.py).
            const double h = double(m.hiddenSize);
            const double inter =
                double(m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize
                                                     : m.ffnHiddenSize) /
                (x.ep > 1 ? 1.0 : x.tp);
            const double interAlign = gpu.architecture == "blackwell" ? 256 : 128;
            const double pad = roundUp(h, 256) / h * roundUp(inter, interAlign) / inter;
            if (quantized && std::isfinite(pad) && pad > 0)
                n *= pad;
            if (!t.quantizable)
                perElement = x.c; // expert biases stay bf16
        }
        bytes += n * perElement;
    }
    return bytes;
}

double globalWeightBytes(const Ctx &x, const StageShape &st)
{
    double bytes = 0;
    const WeightList globals = globalWeights(x.m);
    for (const auto &t : globals) {
        const bool onStage = t.place == WeightPlace::Embedding ? st.first : st.last;
        if (!onStage)
            continue;
        double rows = double(t.rows);
        // VocabParallelEmbedding / ParallelLMHead pad the vocabulary to a multiple of 64
        // (vLLM vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE) and split it by TP.
        if ((t.place == WeightPlace::Embedding || t.place == WeightPlace::OutputHead) &&
            t.rows == x.m.vocabSize)
            rows = roundUp(rows, 64);
        double n = rows * double(t.cols) * double(t.copies);
        if (t.tensorParallel)
            n /= x.tp;
        bytes += n * x.c;
    }
    // The tied head shares the embedding; under pipeline parallelism the last stage holds
    // its own copy of it (vLLM ParallelLMHead tie on a separate rank).
    if (x.m.tiedEmbeddings && st.last && !st.first)
        bytes += roundUp(double(x.m.vocabSize), 64) * double(x.m.hiddenSize) / x.tp * x.c;
    return bytes;
}

// The rotary embedding's cos/sin cache: max_position x rotary_dim in the model dtype
// (vLLM rotary_embedding.py _compute_cos_sin_cache; measured: Llama-3.1-8B loads as 14.9888
// GiB = 8.03e9 * 2 B + 131072 * 128 * 2 B).
double ropeCacheBytes(const Ctx &x)
{
    if (x.m.positions != PositionKind::Rope)
        return 0;
    const double dim = double(x.m.isMla() ? x.m.mla.qkRopeHeadDim : x.m.headDim);
    return double(x.m.maxPositions) * dim * x.c;
}

// Bytes one token takes in one layer's KV cache on this GPU.
double kvPerTokenPerLayer(const Ctx &x, bool hfCache)
{
    const auto &m = x.m;
    const double e = x.r.kvElementBytes;
    if (m.isMla()) {
        // transformers' DeepseekV3Attention caches decompressed per-head keys and values.
        if (hfCache)
            return double(m.attentionHeads) / x.tp * double(m.mla.qkHeadDim() + m.mla.vHeadDim) *
                   e;
        // vLLM MLAAttentionSpec / SGLang MLATokenToKVPool: the kv_lora_rank latent plus the
        // rope key, one copy per token (not split by TP) (DeepSeek-V2 §2.1.2).
        return double(m.mla.kvLoraRank + m.mla.qkRopeHeadDim) * e;
    }
    // K and V of the kv heads on this GPU; with fewer kv heads than TP ranks each rank keeps
    // one replicated head (vLLM ModelConfig.get_num_kv_heads: max(1, kv_heads // tp)).
    const double heads = std::max(1.0, std::floor(double(m.kvHeads) / x.tp));
    return 2.0 * heads * double(m.headDim) * e;
}

// The activation peak of one forward over `tokens` tokens plus the sampler over `rows`
// requests (vLLM gpu_model_runner.py profile_run: _dummy_run(max_num_batched_tokens) then
// _dummy_sampler_run). Within a layer the MLP's intermediates are the largest transient; the
// logits come after the last layer has freed them, so the peak is the larger of the two.
// Checked against vLLM's "PyTorch activation peak memory": Llama-3.1-8B, 20000 and 29000
// tokens: 2.07 and 2.99 GiB logged, (3f + 3h) * 2 bytes per token = 2.06 and 2.99 GiB.
double activationPeak(const Ctx &x, double tokens, double rows, bool sampler, bool hfLogits)
{
    const auto &m = x.m;
    const double c = x.c, h = double(m.hiddenSize), tp = x.tp;
    // Residual stream, normed input and the layer's output.
    const double hidden = 3 * h * c;
    // q, k, v and the attention output.
    const double q = double(m.attentionHeads) / tp * double(m.headDim);
    const double kvw = std::max(1.0, std::floor(double(m.kvHeads) / tp)) * double(m.headDim);
    double attention = (2 * q + 2 * kvw) * c;
    if (m.isMla()) // prefill decompresses per-head keys and values (vLLM MLA forward_mha)
        attention = double(m.attentionHeads) / tp *
                    double(2 * m.mla.qkHeadDim() + 2 * m.mla.vHeadDim) * c;
    // Dense MLP: gate_up (2f) and the activation's output (f) (vLLM MergedColumnParallelLinear
    // and SiluAndMul).
    const double dense = 3 * double(m.ffnHiddenSize) / tp * c;
    double perToken = hidden + std::max(attention, m.isMoe() && m.moe.denseLayers == 0 ? 0.0 : dense);
    double forward = tokens * perToken;
    if (m.isMoe()) {
        // fused_moe: intermediate_cache1 [M, k, 2N], cache2 [M*k, N], cache3 [M, k, h] in
        // the model dtype, M at most VLLM_FUSED_MOE_CHUNK_SIZE (32768) tokens; router logits
        // in fp32; shared experts as a dense MLP (vLLM fused_moe.py fused_experts_impl).
        const double n = double(m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize
                                                              : m.ffnHiddenSize) /
                         (x.ep > 1 ? 1.0 : tp);
        const double k = double(std::max<int64_t>(1, m.moe.expertsPerToken));
        const double chunk = std::min(tokens, 32768.0);
        const double shared =
            m.moe.sharedExperts > 0
                ? 3 * double(m.moe.sharedExpertFfnHiddenSize > 0 ? m.moe.sharedExpertFfnHiddenSize
                                                                 : m.moe.expertFfnHiddenSize) *
                      double(m.moe.sharedExperts) / tp * c
                : 0.0;
        const double moe = chunk * k * (3 * n + h) * c +
                           tokens * (double(m.moe.experts) * 4 + shared + hidden);
        forward = std::max(forward, moe);
    }
    if (!sampler)
        return forward;
    const double vocab = roundUp(double(m.vocabSize), 64);
    // Sampler (vllm/v1/sample/sampler.py, ops/topk_topp_sampler.py apply_top_k_top_p): the
    // logits in the model dtype, their fp32 copy (4), top-k/top-p's sort into values and int64
    // indices (12) with the radix sort's alternate buffers (12), the logits scattered back (4)
    // and the probabilities (4): c + 36 bytes per request and vocabulary entry. Checked: 1.26
    // GiB logged for 256 x 128256 (Llama-3-8B, PR #10511), about 7.3 GiB implied for
    // 1024 x 201088 (gpt-oss-120b, issue #27508).
    double logits = rows * vocab * (c + 36);
    // transformers generate keeps the last position's logits in fp32 (logits_to_keep = 1).
    if (hfLogits)
        logits = rows * vocab * (c + 4);
    return std::max(forward, tokens * h * c + logits);
}

// vLLM V1 keeps what its profiling could not see outside PyTorch: cuBLAS/cuBLASLt workspaces
// and kernels loaded during the profile, and with TP the NCCL communicator and custom
// all-reduce buffers. Published "non_torch_memory" figures: 0.16-0.35 GiB on one GPU
// (H100, RTX 3090), 0.20-0.43 GiB per rank with TP 2-4 (RTX 4090, A100-40GB).
constexpr double nonTorchOneGpu = 0.3 * GiB;
constexpr double nonTorchTensorParallel = 0.1 * GiB;

// CUDA context and kernel images, before the engine's first snapshot (SGLang measures free
// memory after them): the estimate's framework term (estimate.cpp cudaContextBytes).
double contextBytes(const GpuConfig &gpu)
{
    return gpu.architecture == "volta" ? 1343 * MiB : 500 * MiB;
}

// vLLM's CUDA-graph capture sizes of release 0.21 and later (vllm/config/compilation.py):
// 1, 2, 4, then steps of 8 below 256 and steps of 16 from 256, up to the largest. Counted
// as vLLM logs them, "Profiling CUDA graph memory: PIECEWISE=51 (largest=512), FULL=35
// (largest=256)" for max_num_seqs 256 (LMCache issue #3430, vLLM 0.21.0).
double captureSizesUpTo(double largest)
{
    if (largest < 1)
        return 0;
    double n = largest >= 4 ? 3 : (largest >= 2 ? 2 : 1);
    if (largest >= 8)
        n += std::floor((std::min(largest, 248.0) - 8) / 8) + 1;
    if (largest >= 256)
        n += std::floor((largest - 256) / 16) + 1;
    return n;
}

// One captured graph's own kernel-node storage, per decoder layer on the GPU (published
// "Graph capturing finished ... took 0.3-0.6 GiB" for 7-8B models with 67 graphs).
constexpr double graphBytesPerLayer = 0.25 * MiB;

// vLLM from 0.21 (engine_version) captures FULL decode graphs beside the PIECEWISE ones
// (cudagraph_mode FULL_AND_PIECEWISE) and its memory profiler estimates them before sizing
// the KV cache (gpu_worker.py determine_available_memory subtracts
// cudagraph_memory_estimate when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, on by default
// "since v0.21.0" as the engine logs).
bool graphsInBudget(const Ctx &x)
{
    return x.r.engine == ServingEngine::Vllm && x.s.serving.cudaGraphs &&
           x.s.serving.engineVersion.atLeast(0, 21);
}

// CUDA graphs. Up to vLLM 0.20 they are captured after the KV cache is allocated, so outside
// its budget; from 0.21 the profiler's estimate of them comes out of the budget
// (cudaGraphEstimate) and the graphs live in what it reserved. The graphs share one memory
// pool sized by the largest captured batch, plus each graph's own kernel-node storage.
double cudaGraphBytes(const Ctx &x, int64_t stageLayers)
{
    if (!x.s.serving.cudaGraphs || x.r.engine == ServingEngine::Transformers)
        return 0;
    const double perGraph = double(stageLayers) * graphBytesPerLayer;
    if (graphsInBudget(x)) {
        // PIECEWISE graphs up to min(2 x max_num_seqs, 512, max_num_batched_tokens) and FULL
        // decode graphs up to max_num_seqs, one shared pool (gpu_model_runner.py capture_model).
        const double largest = std::min({2.0 * double(x.r.maxNumSeqs), 512.0,
                                         double(x.r.maxNumBatchedTokens)});
        const double full = captureSizesUpTo(std::min(double(x.r.maxNumSeqs), largest));
        const double pool = activationPeak(x, largest, 0, false, false);
        return pool + (captureSizesUpTo(largest) + full) * perGraph;
    }
    // vLLM up to 0.20: capture sizes 1, 2, 4, then steps of 8 up to min(2 * max_num_seqs, 512)
    // (vllm/config/compilation.py of those releases); SGLang 0.4: up to cuda_graph_max_bs 160.
    const double largest = x.r.engine == ServingEngine::Sglang
                               ? 160.0
                               : std::min(2.0 * double(x.r.maxNumSeqs), 512.0);
    const double graphs = 3 + std::floor(largest / 8);
    const double pool = activationPeak(x, largest, 0, false, false);
    return pool + graphs * perGraph;
}

// What vLLM 0.21+ subtracts from the KV budget for the graphs (gpu_model_runner.py
// profile_cudagraph_memory): per mode it captures the largest descriptor (the shared pool,
// "first capture") and the next one (one graph's cost), and extrapolates: the largest first
// capture over the modes plus per-graph cost x (graphs - 1) summed over the modes. Equal to
// the graphs' own bytes less one graph: the first capture holds the pool and one graph.
double cudaGraphEstimate(const Ctx &x, int64_t stageLayers)
{
    if (!graphsInBudget(x))
        return 0;
    return std::max(0.0, cudaGraphBytes(x, stageLayers) - double(stageLayers) * graphBytesPerLayer);
}

ServingPlan planStage(const Ctx &x, int stage, const GpuConfig &gpu)
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

    // Weights.
    const WeightList main = layerWeights(m);
    const double mainBytes = layerWeightBytes(x, main, gpu);
    double weights = globalWeightBytes(x, st) + ropeCacheBytes(x);
    if (m.isMoe()) {
        const WeightList dense = layerWeights(m, LayerKind::Dense);
        weights += mainBytes * double(moeLayers) + layerWeightBytes(x, dense, gpu) * double(denseLayers);
    } else {
        weights += mainBytes * double(st.layers);
    }
    p.weightsBytes = weights;

    // KV layout: full-attention and sliding-window layers of this stage (spread evenly).
    const bool hf = r.engine == ServingEngine::Transformers;
    const double perLayer = kvPerTokenPerLayer(x, hf);
    const double slidingShare =
        m.slidingWindow > 0 && m.layers > 0 ? double(m.slidingLayers) / double(m.layers) : 0.0;
    const int64_t sliding = std::llround(slidingShare * double(st.layers));
    const int64_t full = st.layers - sliding;
    p.kvBytesPerToken = perLayer * double(st.layers);

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
        p.kvCacheBytes = batch * perLayer * (double(full) * length + double(sliding) * window);
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

double cudaTotalBytes(const GpuConfig &gpu)
{
    // torch.cuda.mem_get_info()'s total, as vLLM logs it (total_gpu_memory) or PyTorch's
    // out-of-memory message prints it ("... GiB total capacity"), for the catalog's cards.
    struct Known
    {
        std::string_view preset;
        double gib;
        std::string_view source;
    };
    static constexpr Known known[] = {
        {"rtx-3090", 23.58, "vLLM issue #10517 and PR #14447 logs: total_gpu_memory=23.58GiB"},
        {"h100-80gb", 79.22, "vLLM PRs #10511, #12126 logs: total_gpu_memory 79.22GiB"},
        {"a100-40gb", 39.38, "vLLM issue #16570 log: total_gpu_memory (39.38GiB)"},
        {"a100-80gb", 79.15, "PyTorch OOM messages on A100-SXM4-80GB: 79.15 GiB total capacity"},
        {"t4-16gb", 14.75, "PyTorch OOM messages on Tesla T4: 14.75 GiB total capacity"},
        {"a10g-24gb", 22.19, "PyTorch OOM messages on A10G: 22.19 GiB total capacity"},
        {"v100-16gb", 15.78, "PyTorch OOM messages on V100-SXM2-16GB: 15.78 GiB total capacity"},
    };
    const double smi = std::max(0.0, gpu.memoryGiB) * GiB;
    for (const auto &k : known)
        if (k.preset == gpu.preset && std::abs(smi - k.gib * GiB) < 2 * GiB)
            return k.gib * GiB;
    // Elsewhere: nvidia-smi's total less the median of the differences above (0.43 GiB).
    return std::max(0.0, smi - 0.43 * GiB);
}

ResolvedServing resolveServing(const Scenario &s)
{
    const ServingConfig &in = s.serving;
    ResolvedServing r;
    r.engine = in.engine;
    const double total = cudaTotalBytes(s.gpu);
    const int64_t tp = std::max<int64_t>(1, s.parallelism.tensorParallel);
    const double dtype = s.training.precision == Precision::Fp32 ? 4.0 : 2.0;
    r.kvElementBytes = in.kvCacheDtype == KvCacheDtype::Fp8 ? 1.0 : dtype;
    r.maxModelLen = in.maxModelLen > 0 ? in.maxModelLen : std::max<int64_t>(1, s.model.maxPositions);
    switch (in.engine) {
    case ServingEngine::Vllm: {
        const bool large = largeGpu(s.gpu, total);
        r.utilization = in.gpuMemoryUtilization > 0 ? in.gpuMemoryUtilization : 0.9;
        r.maxNumSeqs = in.maxNumSeqs > 0 ? in.maxNumSeqs : (large ? 1024 : 256);
        r.maxNumBatchedTokens = in.maxNumBatchedTokens > 0 ? in.maxNumBatchedTokens
                                                           : (large ? 8192 : 2048);
        if (!in.engineVersion.atLeast(0, 8)) {
            // The V0 engine (the default before 0.8.0): max_num_seqs 256 on every GPU, and
            // without chunked prefill (max_model_len up to 32k) one step holds a whole
            // prompt: max_num_batched_tokens = max(max_model_len, 2048); beyond 32k `vllm
            // serve` turns chunked prefill on with 512 (vllm/config.py SchedulerConfig and
            // engine/arg_utils.py of v0.4-v0.7).
            if (in.maxNumSeqs <= 0)
                r.maxNumSeqs = 256;
            if (in.maxNumBatchedTokens <= 0)
                r.maxNumBatchedTokens =
                    r.maxModelLen <= 32768 ? std::max<int64_t>(r.maxModelLen, 2048) : 512;
        }
        r.blockSize = in.blockSize > 0 ? in.blockSize : 16;
        break;
    }
    case ServingEngine::Sglang:
        // sglang/srt/server_args.py (v0.4.x): mem_fraction_static by TP size;
        // chunked_prefill_size 8192, 2048 below 25 GB.
        r.utilization = in.gpuMemoryUtilization > 0 ? in.gpuMemoryUtilization
                        : tp >= 16                  ? 0.79
                        : tp >= 8                   ? 0.81
                        : tp >= 4                   ? 0.85
                        : tp >= 2                   ? 0.87
                                                    : 0.88;
        r.maxNumSeqs = in.maxNumSeqs > 0 ? in.maxNumSeqs : 1024;
        r.maxNumBatchedTokens = in.maxNumBatchedTokens > 0 ? in.maxNumBatchedTokens
                                : total < 25 * GiB         ? 2048
                                                           : 8192;
        r.blockSize = in.blockSize > 0 ? in.blockSize : 1;
        break;
    case ServingEngine::Transformers:
        r.utilization = 1.0;
        r.maxNumSeqs = std::max<int64_t>(1, s.training.microBatchSize);
        r.maxNumBatchedTokens = std::max<int64_t>(1, s.training.microBatchSize * s.training.sequenceLength);
        r.blockSize = 1;
        r.maxModelLen = in.maxModelLen > 0 ? in.maxModelLen
                                           : s.training.sequenceLength + in.maxNewTokens;
        break;
    }
    return r;
}

ServingPlan planServing(const Scenario &s)
{
    if (!s.serving.present || s.training.mode != Mode::Inference)
        return {};
    Ctx x{s, s.model, resolveServing(s)};
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
