// The `serving` object of a scenario file: spellings, ranges and the engine defaults left out.

#include "formats/serving_json.h"

#include "formats/enum_names.h"
#include "formats/json_reader.h"
#include "formats/scenario_json.h"

namespace vramplan {

VRAMPLAN_ENUM_TABLE(ServingEngine, {ServingEngine::Vllm, "vllm"}, {ServingEngine::Sglang, "sglang"},
                    {ServingEngine::Transformers, "transformers"})
VRAMPLAN_ENUM_TABLE(KvCacheDtype, {KvCacheDtype::Auto, "auto"}, {KvCacheDtype::Fp8, "fp8"})
VRAMPLAN_ENUM_TABLE(WeightQuantization, {WeightQuantization::None, "none"},
                    {WeightQuantization::Fp8, "fp8"}, {WeightQuantization::Awq, "awq"},
                    {WeightQuantization::Gptq, "gptq"}, {WeightQuantization::Mxfp4, "mxfp4"},
                    {WeightQuantization::Bitsandbytes, "bitsandbytes"})
VRAMPLAN_ENUM_TABLE(GenerateCache, {GenerateCache::Dynamic, "dynamic"},
                    {GenerateCache::Static, "static"})


namespace {

// Lengths beyond 2^30 tokens are typos, and keep every product below overflow.
constexpr int64_t maxTokens = int64_t(1) << 30;

} // namespace

bool readServing(const nlohmann::json &document, ServingConfig &out, std::string &error)
{
    if (!document.is_object() || !document.contains("serving") || document["serving"].is_null())
        return true;
    JsonReader r(document["serving"], "serving", error);
    ServingConfig s;
    s.present = true;
    r.enumeration("engine", s.engine);
    // vLLM's --gpu-memory-utilization and SGLang's --mem-fraction-static are both a share of
    // the GPU in (0, 1]; the second is accepted under its own name too.
    r.number("gpu_memory_utilization", s.gpuMemoryUtilization, 0.0, 1.0, true);
    if (r.has("mem_fraction_static")) {
        if (r.has("gpu_memory_utilization"))
            return r.fail("serving.mem_fraction_static",
                          "give either gpu_memory_utilization or mem_fraction_static, not both");
        r.number("mem_fraction_static", s.gpuMemoryUtilization, 0.0, 1.0, true);
    } else {
        r.accept("mem_fraction_static");
    }
    r.integer("max_model_len", s.maxModelLen, 1, maxTokens);
    r.integer("max_num_seqs", s.maxNumSeqs, 1, int64_t(1) << 20);
    r.integer("max_num_batched_tokens", s.maxNumBatchedTokens, 1, maxTokens);
    r.enumeration("kv_cache_dtype", s.kvCacheDtype);
    r.integer("block_size", s.blockSize, 1, 4096);
    r.boolean("cuda_graphs", s.cudaGraphs);
    // vLLM's --enforce-eager is cuda_graphs = false.
    bool eager = false;
    if (r.boolean("enforce_eager", eager)) {
        if (r.has("cuda_graphs") && eager == s.cudaGraphs)
            return r.fail("serving.enforce_eager", "contradicts serving.cuda_graphs");
        s.cudaGraphs = !eager;
    }
    r.enumeration("quantization", s.quantization);
    // `engine_version`: "0.21", "0.21.1", "0.10.1rc1" or "vllm 0.21" (the name, when written,
    // must be the section's engine).
    std::string version;
    if (r.string("engine_version", version, 64) && !version.empty() &&
        !parseReleaseVersion(version, toString(s.engine), "serving.engine_version",
                             s.engineVersion, error))
        return false;
    r.integer("max_new_tokens", s.maxNewTokens, 0, maxTokens);
    r.enumeration("cache", s.cache);
    r.integer("target_requests", s.targetRequests, 1, int64_t(1) << 20);
    r.integer("target_tokens", s.targetTokens, 1, maxTokens);
    r.finish();
    if (!r.ok())
        return false;
    out = s;
    return true;
}

nlohmann::json servingToJson(const ServingConfig &s)
{
    nlohmann::json out = {{"engine", toString(s.engine)},
                          {"kv_cache_dtype", toString(s.kvCacheDtype)},
                          {"cuda_graphs", s.cudaGraphs},
                          {"quantization", toString(s.quantization)}};
    if (s.gpuMemoryUtilization > 0)
        out["gpu_memory_utilization"] = s.gpuMemoryUtilization;
    if (s.maxModelLen > 0)
        out["max_model_len"] = s.maxModelLen;
    if (s.maxNumSeqs > 0)
        out["max_num_seqs"] = s.maxNumSeqs;
    if (s.maxNumBatchedTokens > 0)
        out["max_num_batched_tokens"] = s.maxNumBatchedTokens;
    if (s.blockSize > 0)
        out["block_size"] = s.blockSize;
    if (s.engineVersion.given)
        out["engine_version"] = frameworkVersionText(s.engineVersion);
    if (s.engine == ServingEngine::Transformers || s.maxNewTokens != 256)
        out["max_new_tokens"] = s.maxNewTokens;
    if (s.engine == ServingEngine::Transformers || s.cache != GenerateCache::Dynamic)
        out["cache"] = toString(s.cache);
    if (s.targetRequests > 0)
        out["target_requests"] = s.targetRequests;
    if (s.targetTokens > 0)
        out["target_tokens"] = s.targetTokens;
    return out;
}

} // namespace vramplan
