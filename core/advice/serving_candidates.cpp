// What the serving search tries (serving_advice.h): the target applied to a scenario, the GPU
// kinds and layouts, and which weight formats and KV cache dtypes each GPU runs under vLLM.

#include "advice/serving_candidates.h"

#include "catalog.h"
#include "serving/serving.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace vramplan {
namespace {

// AWQ and GPTQ checkpoints quantise in groups of 128 input features; vLLM's kernels refuse a
// row-parallel split that cuts a group (gptq.py / awq_marlin.py: "The input size is not
// aligned with the quantized weight shape").
constexpr int64_t quantGroup = 128;

// The CUDA compute capability x 10 of an NVIDIA architecture (0: not NVIDIA or unknown), what
// vLLM's quantization methods check in get_min_capability().
int capability(const std::string &architecture)
{
    if (architecture == "volta")
        return 70;
    if (architecture == "turing")
        return 75;
    if (architecture == "ampere")
        return 80;
    if (architecture == "ada")
        return 89;
    if (architecture == "hopper")
        return 90;
    if (architecture == "blackwell")
        return 100;
    return 0;
}

bool isAmd(const std::string &architecture)
{
    return architecture.rfind("cdna", 0) == 0;
}

// fp8 tensor cores: the catalog's fp8_tflops (Ada, Hopper, Blackwell, MI300X); for a custom GPU
// its architecture.
bool hasFp8(const GpuConfig &gpu)
{
    if (const GpuSpec *spec = Catalog::builtin().gpu(gpu.preset))
        return spec->fp8Tflops > 0;
    return capability(gpu.architecture) >= 89 || gpu.architecture == "cdna3";
}

} // namespace

namespace serving_advice_internal {

// Every GPU kind searched: the catalog's, and the scenario's own when it is a custom card.
std::vector<GpuConfig> gpuKinds(const Scenario &base, bool hardware)
{
    std::vector<GpuConfig> out;
    const GpuSpec *own = Catalog::builtin().gpu(base.gpu.preset);
    const bool custom = !own || std::abs(own->memoryMiB / 1024.0 - base.gpu.memoryGiB) > 1.0;
    if (custom)
        out.push_back(base.gpu);
    if (!hardware) {
        if (!custom)
            out.push_back(onGpu(base, *own).gpu);
        return out;
    }
    for (const auto &g : Catalog::builtin().gpus())
        out.push_back(onGpu(base, g).gpu);
    return out;
}

Scenario layout(const Scenario &onKind, int64_t tp, int64_t pp, WeightQuantization q,
                KvCacheDtype kv, const ServingTarget &t)
{
    Scenario c = onKind;
    auto &p = c.parallelism;
    p.tensorParallel = tp;
    p.pipelineParallel = pp;
    p.gpus = tp * pp; // one engine instance: no data-parallel replicas
    p.contextParallel = 1;
    p.virtualPipelineParallel = 1;
    p.expertParallel = 1;
    c.serving.quantization = q;
    c.serving.kvCacheDtype = kv;
    return withTarget(c, t);
}

} // namespace serving_advice_internal

using namespace serving_advice_internal;

bool isServingScenario(const Scenario &s)
{
    return s.serving.present && s.training.mode == Mode::Inference;
}

ServingTarget resolveTarget(const Scenario &s, ServingTarget t)
{
    // The scenario's own target where it sets one; else one request (transformers: the
    // micro-batch) of max_model_len. max_num_seqs is a scheduler cap, not a load: taking it as
    // the requests to serve made "Make it fit" search for 256 requests of 131,072 tokens once a
    // user lowered it (issue 21 #6).
    if (t.requests <= 0)
        t.requests = s.serving.targetRequests > 0 ? s.serving.targetRequests
                     : s.serving.engine == ServingEngine::Transformers
                         ? std::max<int64_t>(1, s.training.microBatchSize)
                         : 1;
    if (t.tokens <= 0)
        t.tokens = s.serving.targetTokens > 0 ? s.serving.targetTokens
                                               : std::max<int64_t>(1, resolveServing(s).maxModelLen);
    return t;
}

Scenario withTarget(const Scenario &base, const ServingTarget &t)
{
    Scenario s = base;
    auto &sv = s.serving;
    if (sv.engine == ServingEngine::Transformers) {
        // generate: the batch is the micro-batch; a request is prompt + new tokens (static
        // cache with max_model_len: max_model_len).
        s.training.microBatchSize = t.requests;
        if (sv.cache == GenerateCache::Static && sv.maxModelLen > 0) {
            sv.maxModelLen = t.tokens;
        } else if (s.training.sequenceLength + sv.maxNewTokens != t.tokens) {
            const int64_t newTokens = std::min(sv.maxNewTokens, t.tokens / 2);
            s.training.sequenceLength = std::max<int64_t>(1, t.tokens - newTokens);
            sv.maxNewTokens = t.tokens - s.training.sequenceLength;
        }
        return s;
    }
    sv.maxModelLen = t.tokens;
    // The scheduler runs at most max_num_seqs requests at once: raise it to N where the
    // engine's default (or the file's) is lower; vLLM's SchedulerConfig also requires
    // max_num_batched_tokens >= max_num_seqs.
    const ResolvedServing r = resolveServing(s);
    if (r.maxNumSeqs < t.requests)
        sv.maxNumSeqs = t.requests;
    if (sv.engine == ServingEngine::Vllm && r.maxNumBatchedTokens < t.requests)
        sv.maxNumBatchedTokens = t.requests;
    return s;
}

Scenario onGpu(const Scenario &base, const GpuSpec &g)
{
    Scenario s = base;
    s.gpu.preset = g.id;
    s.gpu.name = g.name;
    s.gpu.architecture = g.architecture;
    s.gpu.memoryGiB = g.memoryMiB / 1024.0;
    return s;
}

bool quantizationAllowed(const Scenario &s, WeightQuantization q)
{
    const int cc = capability(s.gpu.architecture);
    const bool amd = isAmd(s.gpu.architecture);
    const bool own = q == s.serving.quantization;
    switch (q) {
    case WeightQuantization::None:
        return true;
    case WeightQuantization::Fp8:
        // W8A8 on fp8 tensor cores (vLLM fp8.py: capability 89, and ROCm MI300); an fp8
        // checkpoint also runs weight-only through FP8 Marlin from capability 80, which the
        // search keeps for a scenario that already is fp8 but does not propose.
        return hasFp8(s.gpu) || (own && cc >= 80);
    case WeightQuantization::Awq:
        // vLLM awq.py get_min_capability: 75.
        return cc >= 75;
    case WeightQuantization::Gptq:
        // vLLM gptq.py get_min_capability: 60; ROCm runs the exllama kernels.
        return cc >= 60 || amd;
    case WeightQuantization::Mxfp4:
        // Only models that ship MXFP4 (gpt-oss) or a scenario that already is; vLLM mxfp4.py
        // get_min_capability: 80 (Marlin on Ampere and Ada).
        return (own || s.model.family == Family::GptOss) && cc >= 80;
    case WeightQuantization::Bitsandbytes:
        // Kept where the scenario uses it (vLLM bitsandbytes.py: capability 70); not proposed:
        // its kernels are the slowest of the formats.
        return own && cc >= 70;
    }
    return false;
}

bool kvFp8Allowed(const Scenario &s)
{
    // transformers' generate has no fp8 cache (its quantised caches are quanto/HQQ int2/int4).
    if (s.serving.engine == ServingEngine::Transformers)
        return s.serving.kvCacheDtype == KvCacheDtype::Fp8;
    // vLLM's fp8 KV cache (fp8_e4m3) runs on fp8 hardware with FlashAttention 3 / FlashInfer /
    // ROCm; a scenario that already uses it keeps it from capability 80.
    return hasFp8(s.gpu) ||
           (s.serving.kvCacheDtype == KvCacheDtype::Fp8 && capability(s.gpu.architecture) >= 80);
}

std::vector<WeightQuantization> searchedQuantizations(const Scenario &s)
{
    using Q = WeightQuantization;
    const Q own = s.serving.quantization;
    // The 4-bit format proposed: the scenario's own if it is 4-bit, else AWQ where vLLM has
    // the kernel, else GPTQ (Volta, ROCm).
    Q int4 = own == Q::Gptq ? Q::Gptq : Q::Awq;
    if (!quantizationAllowed(s, int4))
        int4 = Q::Gptq;
    std::vector<Q> out;
    for (Q q : {own, Q::None, Q::Fp8, Q::Mxfp4, int4})
        if (std::find(out.begin(), out.end(), q) == out.end() && quantizationAllowed(s, q))
            out.push_back(q);
    return out;
}

std::vector<int64_t> searchedTensorParallel(const Scenario &s)
{
    const auto &m = s.model;
    const auto q = s.serving.quantization;
    const bool grouped = q == WeightQuantization::Awq || q == WeightQuantization::Gptq;
    std::vector<int64_t> out;
    for (int64_t tp = 1; tp <= gpusPerNode; tp *= 2) {
        // The layout rules of the estimate (formats/scenario_section_readers.cpp checkLayout): TP divides the
        // attention heads, and the kv heads divide TP or TP them (then replicated).
        if (m.attentionHeads % tp != 0 || (m.kvHeads % tp != 0 && tp % m.kvHeads != 0))
            continue;
        if (grouped) {
            const int64_t attentionOut =
                m.attentionHeads * (m.isMla() ? m.mla.vHeadDim : m.headDim) / tp;
            const bool denseMlp = !m.isMoe() || m.moe.denseLayers > 0;
            const int64_t expertFfn =
                m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize : m.ffnHiddenSize;
            if (attentionOut % quantGroup != 0 ||
                (denseMlp && (m.ffnHiddenSize / tp) % quantGroup != 0) ||
                (denseMlp && m.ffnHiddenSize % tp != 0) ||
                (m.isMoe() && ((expertFfn % tp) != 0 || (expertFfn / tp) % quantGroup != 0)))
                continue;
        }
        out.push_back(tp);
    }
    return out;
}

} // namespace vramplan
