#pragma once
// How an inference server allocates memory (SPEC §3 extension `serving`, read when
// training.mode is inference): the engine and the settings that decide its KV cache.
// The JSON mapping lives in serving_json.cpp; the model in serving.h; docs/serving.md.
//
// A field left at 0 takes the engine's own default, resolved by resolveServing() (serving.h),
// so that a file which omits it means what the engine would do:
//   vLLM (v0.10/v0.11, vllm/engine/arg_utils.py get_batch_defaults, vllm/config/cache.py):
//     gpu_memory_utilization 0.9, block_size 16, max_model_len = the model's
//     max_position_embeddings, max_num_seqs 256 and max_num_batched_tokens 2048 for
//     `vllm serve` (1024 and 8192 on GPUs of >= 70 GiB other than A100).
//   SGLang (v0.4.x, srt/server_args.py __post_init__): mem_fraction_static 0.88 (TP 1),
//     0.87 (TP 2), 0.85 (TP 4), 0.81 (TP 8), 0.79 (TP >= 16); page size 1;
//     chunked_prefill_size 8192 (2048 below 25 GiB); max_running_requests from the pool.
//   transformers generate: the batch is training.micro_batch_size, the prompt
//     training.sequence_length, plus max_new_tokens (default 256) new tokens.

#include "release_version.h"

#include <cstdint>

namespace vramplan {

enum class ServingEngine
{
    Vllm,
    Sglang,
    Transformers
};

// `kv_cache_dtype`: auto (the model's dtype) or fp8 (e4m3, one byte per element).
enum class KvCacheDtype
{
    Auto,
    Fp8
};

// vLLM's `--quantization` (or the checkpoint's quantization_config): how linear weights are
// stored on the GPU.
enum class WeightQuantization
{
    None,
    Fp8,          // fp8 e4m3 weights with fp32 scales per 128 x 128 block
    Awq,          // 4-bit, groups of 128 with fp16 scales and packed 4-bit zeros
    Gptq,         // as AWQ, plus g_idx (int32 per input feature)
    Mxfp4,        // experts in fp4 e2m1 with one e8m0 scale per 32 (gpt-oss)
    Bitsandbytes  // NF4, blocks of 64 with double-quantised scales
};

// transformers' cache classes: DynamicCache grows with the tokens; StaticCache allocates
// max_cache_len (here max_model_len) for every sequence up front.
enum class GenerateCache
{
    Dynamic,
    Static
};

struct ServingConfig
{
    bool present = false; // the scenario file has a `serving` object
    ServingEngine engine = ServingEngine::Vllm;
    double gpuMemoryUtilization = 0; // SGLang's mem_fraction_static; 0: the engine's default
    int64_t maxModelLen = 0;         // 0: the model's max_positions
    int64_t maxNumSeqs = 0;          // 0: the engine's default
    int64_t maxNumBatchedTokens = 0; // 0: the engine's default
    KvCacheDtype kvCacheDtype = KvCacheDtype::Auto;
    int64_t blockSize = 0;  // tokens per KV block (SGLang: page size); 0: the engine's default
    bool cudaGraphs = true; // false: vLLM --enforce-eager, SGLang --disable-cuda-graph
    WeightQuantization quantization = WeightQuantization::None;
    // The engine's release (`engine_version`, "0.21.1" or "vllm 0.21"): decides which version
    // of its memory accounting applies (serving/, docs/serving.md). Absent: the current
    // release (vLLM >= 0.21: the CUDA-graph estimate comes out of the KV budget).
    FrameworkVersion engineVersion;
    // The load to serve (extensions `target_requests`, `target_tokens` of the `serving`
    // object, issue 21 #6): N concurrent requests of L tokens each, what "Make it fit" and
    // `vramplan-cli advise` search for (advice/serving_advice.h; the CLI's --requests and
    // --tokens override them). 0: one request (transformers: the micro-batch) of max_model_len,
    // the engine's own start-up condition; never max_num_seqs, a scheduler cap, not a load.
    int64_t targetRequests = 0;
    int64_t targetTokens = 0;
    // transformers generate only (extensions of the `serving` object):
    int64_t maxNewTokens = 256;
    GenerateCache cache = GenerateCache::Dynamic;

    friend bool operator==(const ServingConfig &, const ServingConfig &) = default;
};

} // namespace vramplan
