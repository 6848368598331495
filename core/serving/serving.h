#pragma once
// The memory of an inference server, planned the way the engines allocate it (SPEC §3
// extension `serving`; docs/serving.md): weights, the activation peak of the profiling run,
// memory outside PyTorch, CUDA graphs, and the KV cache as what remains of the budget, in
// blocks, as tokens and as concurrent requests of max_model_len.
//
// Example: Llama-3.1-8B in bf16 on one H100 80GB under vLLM at gpu_memory_utilization 0.9:
// CUDA reports 79.22 GiB, the budget is 71.30 GiB; weights 14.99 GiB (8.03e9 * 2 bytes plus
// the rotary cos/sin cache), the profiling run of 8192 tokens peaks at about 0.9 GiB, about
// 0.25 GiB lies outside PyTorch, and the rest, about 55 GiB, is the KV cache: at
// 2 * 32 * 8 * 128 * 2 = 131072 bytes per token that is about 450k tokens, 3.4 requests of
// 131072 tokens at once.
//
//     ServingPlan p = planServing(scenario); // scenario.serving.present, mode inference
//     p.kvCacheTokens; p.maxConcurrency; p.status == ServingStatus::Ok

#include "scenario.h"

#include <cstdint>
#include <string>

namespace vramplan {

enum class ServingStatus
{
    Ok,
    NoKvMemory,      // the budget is spent before the KV cache: the engine refuses to start
    BelowOneRequest, // the KV cache cannot hold one request of max_model_len
    OutOfMemory      // transformers generate: the cache and the forward exceed the GPU
};

// The settings an engine runs with once its defaults are filled in.
struct ResolvedServing
{
    ServingEngine engine = ServingEngine::Vllm;
    double utilization = 0.9;
    int64_t maxModelLen = 0;
    int64_t maxNumSeqs = 0;
    int64_t maxNumBatchedTokens = 0;
    int64_t blockSize = 16;
    double kvElementBytes = 2; // bytes of one cached element (auto: the model dtype)
};
ResolvedServing resolveServing(const Scenario &scenario);

// What torch.cuda.mem_get_info() reports as the total: nvidia-smi's figure less what the
// driver keeps (page tables, ECC, reserved regions), per GPU where measured.
double cudaTotalBytes(const GpuConfig &gpu);

struct ServingPlan
{
    bool present = false;
    ResolvedServing settings;
    ServingStatus status = ServingStatus::Ok;
    int stage = 0;           // the pipeline stage reported (the one with the fewest KV tokens)
    int64_t stageLayers = 0; // decoder layers on that stage

    double cudaTotalBytes = 0; // what CUDA reports for the GPU
    double budgetBytes = 0;    // utilization x total (SGLang: x the free memory at start)
    // Per GPU, as the engine reports them:
    double weightsBytes = 0;
    double activationBytes = 0; // the profiling run's activation peak (transformers: prefill)
    double nonTorchBytes = 0;   // outside PyTorch's allocator, counted in the budget
    double cudaGraphBytes = 0;  // the captured graphs (vLLM up to 0.20: outside the budget)
    double cudaGraphEstimateBytes = 0; // vLLM 0.21+: the profiler's graph estimate, in the budget
    double kvCacheBytes = 0;    // the KV cache allocated (whole blocks); negative: short by
    double kvBytesPerToken = 0; // one token in every layer of this GPU (that attends)
    // One sequence's recurrent state in every Gated DeltaNet, Mamba2 or short-convolution layer
    // of this GPU (hybrid models; in the KV cache's pool, vLLM: one block a state group).
    double stateBytesPerSequence = 0;
    int64_t kvGroups = 1;       // vLLM's KV cache groups (hybrid sliding/full models)
    int64_t kvBlocks = 0;
    int64_t kvCacheTokens = 0;
    double maxConcurrency = 0; // requests of max_model_len at once
    int64_t longestRequest = 0; // the longest max_model_len the cache would hold
};

// The plan for a scenario whose serving section is present (and training.mode inference);
// `present` is false otherwise. Never NaN or infinite; byte figures are clamped to 4e18.
ServingPlan planServing(const Scenario &scenario);

// The engine's own message for a start-up that fails ("" when it starts).
std::string servingFailureText(const ServingPlan &plan);

} // namespace vramplan
