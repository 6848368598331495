// The engine's profiling run (the activation peak of one forward and of the sampler), the CUDA
// context and the CUDA graphs. Each term names the engine file it follows, or the published
// start-up logs it was checked against (tests/data/measured/serving_logs*.json).

#include "serving/serving_terms.h"

#include <algorithm>
#include <cmath>

namespace vramplan {

// The activation peak of one forward over `tokens` tokens plus the sampler over `rows`
// requests (vLLM gpu_model_runner.py profile_run: _dummy_run(max_num_batched_tokens) then
// _dummy_sampler_run). Within a layer the MLP's intermediates are the largest transient; the
// logits come after the last layer has freed them, so the peak is the larger of the two.
// Checked against vLLM's "PyTorch activation peak memory": Llama-3.1-8B, 20000 and 29000
// tokens: 2.07 and 2.99 GiB logged, (3f + 3h) * 2 bytes per token = 2.06 and 2.99 GiB.
double activationPeak(const ServingContext &x, double tokens, double rows, bool sampler,
                      bool hfLogits)
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

// CUDA context and kernel images, before the engine's first snapshot (SGLang measures free
// memory after them): the estimate's framework term (estimate.cpp cudaContextBytes).
double contextBytes(const GpuConfig &gpu)
{
    return gpu.architecture == "volta" ? 1343 * MiB : 500 * MiB;
}

namespace {

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
bool graphsInBudget(const ServingContext &x)
{
    return x.r.engine == ServingEngine::Vllm && x.s.serving.cudaGraphs &&
           x.s.serving.engineVersion.atLeast(0, 21);
}

} // namespace

// CUDA graphs. Up to vLLM 0.20 they are captured after the KV cache is allocated, so outside
// its budget; from 0.21 the profiler's estimate of them comes out of the budget
// (cudaGraphEstimate) and the graphs live in what it reserved. The graphs share one memory
// pool sized by the largest captured batch, plus each graph's own kernel-node storage.
double cudaGraphBytes(const ServingContext &x, int64_t stageLayers)
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
double cudaGraphEstimate(const ServingContext &x, int64_t stageLayers)
{
    if (!graphsInBudget(x))
        return 0;
    return std::max(0.0, cudaGraphBytes(x, stageLayers) - double(stageLayers) * graphBytesPerLayer);
}

} // namespace vramplan
