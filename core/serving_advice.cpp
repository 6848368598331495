// The cheapest GPU / TP / quantisation that serves N requests of L tokens (serving_advice.h,
// docs/serving.md "Advice"). Every candidate is planned as the engine allocates it
// (serving.cpp) and, when the plan serves, estimated in full for the device total.

#include "serving_advice.h"

#include "catalog.h"
#include "enum_names.h"
#include "estimate_json.h"
#include "scenario_json.h"
#include "step_time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace vramplan {
namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
// vLLM places tensor-parallel ranks within one node (8 GPUs in the HGX/DGX boards and in the
// cloud instances of the catalog's cards); wider layouts take pipeline stages across nodes.
constexpr int64_t gpusPerNode = 8;
// Pipeline stages tried: two, at every GPU count where TP alone does not serve (within a node,
// or across two nodes of 8 at TP 8, issue 14's brief); beyond two nodes a deployment is
// planned as such, not searched.
constexpr int64_t pipelineStages = 2;
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

bool servesPlan(const ServingPlan &p, const ServingTarget &t)
{
    // The engine's own concurrency figure at max_model_len = L (vLLM: blocks over the blocks
    // one request needs, so for full attention kv_cache_tokens >= N x L follows; for hybrid
    // sliding-window models it is the figure vLLM logs as "Maximum concurrency").
    return p.present && p.status == ServingStatus::Ok &&
           p.maxConcurrency >= double(t.requests) * (1 - 1e-12);
}

// One decode step of every request at L tokens of context reads each GPU's weights (pp times
// with pp micro-batches in flight) and the KV cache of every request: a memory-bandwidth
// roofline (Pope et al. 2022 §3: decode is bandwidth-bound at serving batch sizes). The KV
// bytes of one request are the engine's own: the cache over its concurrency at max_model_len.
double decodeSecondsPerToken(const Scenario &s, const ServingPlan &p, const ServingTarget &t)
{
    const double bandwidth = gpuThroughput(s).memoryGBs * 1e9;
    const double n = double(std::max<int64_t>(1, t.requests));
    const double perRequest = p.maxConcurrency > 0 && p.kvCacheBytes > 0
                                  ? p.kvCacheBytes / p.maxConcurrency
                                  : double(t.tokens) * p.kvBytesPerToken;
    const double pp = double(std::max<int64_t>(1, s.parallelism.pipelineParallel));
    const double bytes = pp * p.weightsBytes + n * perRequest;
    if (!(bandwidth > 0) || !(bytes > 0) || !std::isfinite(bytes))
        return 0;
    return bytes / bandwidth / n;
}

std::vector<std::pair<std::string, nlohmann::json>> changesOf(const Scenario &a, const Scenario &b)
{
    std::vector<std::pair<std::string, nlohmann::json>> out;
    const auto add = [&](const char *path, auto x, auto y, nlohmann::json value) {
        if (x != y)
            out.emplace_back(path, std::move(value));
    };
    const auto &pa = a.parallelism, &pb = b.parallelism;
    const auto &sa = a.serving, &sb = b.serving;
    add("gpu.preset", a.gpu.preset, b.gpu.preset, b.gpu.preset);
    if (a.gpu.preset == b.gpu.preset) // a custom capacity under the same name
        add("gpu.memory_gib", a.gpu.memoryGiB, b.gpu.memoryGiB, b.gpu.memoryGiB);
    add("parallelism.gpus", pa.gpus, pb.gpus, pb.gpus);
    add("parallelism.tensor_parallel", pa.tensorParallel, pb.tensorParallel, pb.tensorParallel);
    add("parallelism.pipeline_parallel", pa.pipelineParallel, pb.pipelineParallel,
        pb.pipelineParallel);
    add("parallelism.virtual_pipeline_parallel", pa.virtualPipelineParallel,
        pb.virtualPipelineParallel, pb.virtualPipelineParallel);
    add("parallelism.context_parallel", pa.contextParallel, pb.contextParallel, pb.contextParallel);
    add("parallelism.expert_parallel", pa.expertParallel, pb.expertParallel, pb.expertParallel);
    add("serving.quantization", sa.quantization, sb.quantization, toString(sb.quantization));
    add("serving.kv_cache_dtype", sa.kvCacheDtype, sb.kvCacheDtype, toString(sb.kvCacheDtype));
    add("serving.max_model_len", sa.maxModelLen, sb.maxModelLen, sb.maxModelLen);
    add("serving.max_num_seqs", sa.maxNumSeqs, sb.maxNumSeqs, sb.maxNumSeqs);
    add("serving.max_num_batched_tokens", sa.maxNumBatchedTokens, sb.maxNumBatchedTokens,
        sb.maxNumBatchedTokens);
    add("serving.max_new_tokens", sa.maxNewTokens, sb.maxNewTokens, sb.maxNewTokens);
    add("training.micro_batch_size", a.training.microBatchSize, b.training.microBatchSize,
        b.training.microBatchSize);
    add("training.sequence_length", a.training.sequenceLength, b.training.sequenceLength,
        b.training.sequenceLength);
    return out;
}

std::string gibText(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / GiB);
    return text;
}

std::string number(double v, int decimals)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

// How far a weight format is from the scenario's own (0 the same, 1 another 8/16-bit
// checkpoint, 2 a 4-bit one): suggestions are dominated only by ones that change no more.
int weightLevel(WeightQuantization base, WeightQuantization q)
{
    if (q == base)
        return 0;
    return q == WeightQuantization::None || q == WeightQuantization::Fp8 ? 1 : 2;
}

int kvLevel(KvCacheDtype base, KvCacheDtype kv)
{
    return kv == base ? 0 : 1;
}

std::string basisOf(const Scenario &base, const ServingSuggestion &c, const ServingTarget &t)
{
    const auto &s = c.scenario;
    std::string out = std::to_string(c.gpus) + " x " + s.gpu.name;
    out += " (TP " + std::to_string(s.parallelism.tensorParallel);
    if (s.parallelism.pipelineParallel > 1)
        out += ", PP " + std::to_string(s.parallelism.pipelineParallel);
    out += ") rents " + number(c.relativeCost, 1) +
           " GiB of GPU memory (the price proxy: the catalog has no prices)";
    std::string numerics;
    if (s.serving.quantization != base.serving.quantization)
        numerics += std::string(toString(s.serving.quantization)) + " weights";
    if (s.serving.kvCacheDtype != base.serving.kvCacheDtype)
        numerics += std::string(numerics.empty() ? "" : " and ") + "an " +
                    std::string(toString(s.serving.kvCacheDtype)) + " KV cache";
    if (!numerics.empty())
        out += "; " + numerics + " change the numerics";
    out += "; the KV cache holds " + number(c.plan.maxConcurrency, 1) + " requests of " +
           std::to_string(t.tokens) + " tokens (target " + std::to_string(t.requests) + ")";
    return out;
}

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

} // namespace

bool isServingScenario(const Scenario &s)
{
    return s.serving.present && s.training.mode == Mode::Inference;
}

ServingTarget resolveTarget(const Scenario &s, ServingTarget t)
{
    if (t.requests <= 0)
        t.requests = s.serving.engine == ServingEngine::Transformers
                         ? std::max<int64_t>(1, s.training.microBatchSize)
                         : std::max<int64_t>(1, s.serving.maxNumSeqs);
    if (t.tokens <= 0)
        t.tokens = std::max<int64_t>(1, resolveServing(s).maxModelLen);
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
        // The layout rules of the estimate (scenario_json.cpp checkLayout): TP divides the
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

ServingSuggestion evaluateServing(const Scenario &base, const Scenario &s, const ServingTarget &t)
{
    ServingSuggestion c;
    c.scenario = s;
    c.changes = changesOf(base, s);
    c.plan = planServing(s);
    c.gpus = std::max<int64_t>(1, s.parallelism.gpus);
    c.gpuMemoryGiB = std::max(0.0, s.gpu.memoryGiB);
    c.relativeCost = double(c.gpus) * c.gpuMemoryGiB;
    c.kind = s.serving.quantization != base.serving.quantization ||
                     s.serving.kvCacheDtype != base.serving.kvCacheDtype
                 ? ChangeKind::Numerics
                 : ChangeKind::SameSemantics;
    const auto &p = c.plan;
    const double n = double(t.requests), len = double(t.tokens);
    c.kvHeadroomTokens = p.kvCacheTokens - t.requests * t.tokens;
    const double seconds = decodeSecondsPerToken(s, p, t);
    c.decodeTokensPerSecond = seconds > 0 ? 1.0 / seconds : 0.0;
    if (servesPlan(p, t)) {
        // The engine starts and holds N requests; the device total (budget, CUDA graphs
        // outside it, context) must also fit the card.
        const Estimate e = estimate(s);
        c.peakDeviceBytes = e.peak.device;
        c.headroomBytes = e.headroomBytes;
        c.serves = e.fits;
        c.shortByBytes = c.serves ? 0.0 : -e.headroomBytes;
    } else if (p.status == ServingStatus::OutOfMemory) {
        c.shortByBytes = p.weightsBytes + p.kvCacheBytes + p.activationBytes - p.budgetBytes;
    } else if (p.maxConcurrency > 0 && p.kvCacheBytes > 0) {
        c.shortByBytes = p.kvCacheBytes * (n / p.maxConcurrency - 1);
    } else {
        c.shortByBytes = n * len * p.kvBytesPerToken - p.kvCacheBytes;
    }
    if (!std::isfinite(c.shortByBytes))
        c.shortByBytes = 4.0e18;
    c.shortByBytes = std::clamp(c.shortByBytes, 0.0, 4.0e18);
    c.basis = basisOf(base, c, t);
    return c;
}

ServingAdvice adviseServing(const Scenario &base, ServingTarget target,
                            const ServingAdviceOptions &options)
{
    ServingAdvice a;
    a.target = target = resolveTarget(base, target);
    if (target.tokens > base.model.maxPositions)
        a.notes.push_back("max_model_len " + std::to_string(target.tokens) +
                          " exceeds the model's max_position_embeddings " +
                          std::to_string(base.model.maxPositions) +
                          ": vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (or rope "
                          "scaling) is set");
    if (base.parallelism.dataParallel() > 1)
        a.notes.push_back("the scenario runs " + std::to_string(base.parallelism.dataParallel()) +
                          " data-parallel replicas; the search plans one engine instance for "
                          "the whole target");
    a.now = evaluateServing(base, withTarget(base, target), target);
    a.servesNow = a.now.serves;
    const double ownSeconds = a.now.decodeTokensPerSecond > 0 ? 1 / a.now.decodeTokensPerSecond : 0;

    std::vector<ServingSuggestion> serving;
    bool haveNearest = false;
    ServingSuggestion nearest;
    const auto consider = [&](ServingSuggestion &&c) {
        ++a.searched;
        if (servesPlan(c.plan, target))
            ++a.estimated;
        if (c.serves) {
            serving.push_back(std::move(c));
            return true;
        }
        // The nearest misses the fewest bytes over all its GPUs; then the cheapest.
        const double missing = c.shortByBytes * double(c.gpus);
        const double best = nearest.shortByBytes * double(nearest.gpus);
        if (!haveNearest || missing < best || (missing == best && c.relativeCost < nearest.relativeCost)) {
            nearest = std::move(c);
            haveNearest = true;
        }
        return false;
    };

    const bool pipelines = base.serving.engine != ServingEngine::Transformers && base.model.layers >= 2;
    for (const GpuConfig &gpu : gpuKinds(base, options.hardware)) {
        Scenario onKind = base;
        onKind.gpu = gpu;
        std::vector<KvCacheDtype> kvs{base.serving.kvCacheDtype};
        if (base.serving.kvCacheDtype == KvCacheDtype::Fp8 && !kvFp8Allowed(onKind))
            kvs = {KvCacheDtype::Auto};
        else if (base.serving.kvCacheDtype == KvCacheDtype::Auto && kvFp8Allowed(onKind))
            kvs.push_back(KvCacheDtype::Fp8);
        for (WeightQuantization q : searchedQuantizations(onKind)) {
            Scenario quantized = onKind;
            quantized.serving.quantization = q;
            const std::vector<int64_t> tps = searchedTensorParallel(quantized);
            if (tps.empty())
                continue;
            for (KvCacheDtype kv : kvs) {
                // The fewest GPUs first: the first GPU count at which a layout serves is this
                // combination's cheapest, and wider ones only cost more. At each count, TP
                // alone first, then two pipeline stages of half the width.
                bool served = false;
                for (int64_t count = 1; count <= gpusPerNode * pipelineStages && !served;
                     count *= 2) {
                    for (int64_t pp : {int64_t(1), pipelineStages}) {
                        const int64_t tp = count / pp;
                        if (tp < 1 || (pp > 1 && (!pipelines || base.model.layers < pp)) ||
                            std::find(tps.begin(), tps.end(), tp) == tps.end())
                            continue;
                        const Scenario c = layout(onKind, tp, pp, q, kv, target);
                        if (!checkScenario(c).empty())
                            continue;
                        if (consider(evaluateServing(base, c, target))) {
                            served = true;
                            break;
                        }
                    }
                }
            }
        }
    }

    // The frontier of cost against numerics: a suggestion stays unless another costs clearly
    // less (5%: within that the proxy cannot tell the cards apart) while changing the weights
    // and the KV cache no more, or costs no more and changes strictly less.
    const auto levels = [&](const ServingSuggestion &c) {
        return std::pair{weightLevel(base.serving.quantization, c.scenario.serving.quantization),
                         kvLevel(base.serving.kvCacheDtype, c.scenario.serving.kvCacheDtype)};
    };
    std::vector<ServingSuggestion> frontier;
    for (const auto &c : serving) {
        const auto [w, k] = levels(c);
        bool dominated = false;
        for (const auto &o : serving) {
            const auto [ow, ok] = levels(o);
            if (ow > w || ok > k)
                continue;
            const bool fewer = ow < w || ok < k;
            if (o.relativeCost < 0.95 * c.relativeCost ||
                (fewer && o.relativeCost <= c.relativeCost)) {
                dominated = true;
                break;
            }
        }
        if (!dominated)
            frontier.push_back(c);
    }
    std::stable_sort(frontier.begin(), frontier.end(), [&](const auto &x, const auto &y) {
        if (x.relativeCost != y.relativeCost)
            return x.relativeCost < y.relativeCost;
        const auto [xw, xk] = levels(x);
        const auto [yw, yk] = levels(y);
        if (xw + xk != yw + yk)
            return xw + xk < yw + yk;
        if (x.gpus != y.gpus)
            return x.gpus < y.gpus;
        if (x.decodeTokensPerSecond != y.decodeTokensPerSecond)
            return x.decodeTokensPerSecond > y.decodeTokensPerSecond;
        return x.headroomBytes > y.headroomBytes;
    });
    if (int(frontier.size()) > options.maxSuggestions)
        frontier.resize(size_t(std::max(0, options.maxSuggestions)));
    // Decode time relative to the scenario's own when it serves the target, else to the
    // cheapest suggestion's (a step the scenario cannot hold is no yardstick).
    const auto secondsOf = [](const ServingSuggestion &c) {
        return c.decodeTokensPerSecond > 0 ? 1 / c.decodeTokensPerSecond : 0.0;
    };
    const double yardstick =
        a.servesNow ? ownSeconds : (frontier.empty() ? 0.0 : secondsOf(frontier.front()));
    a.relativeToOwn = a.servesNow;
    for (auto &c : frontier) {
        const double seconds = secondsOf(c);
        c.relativeStepTime = yardstick > 0 && seconds > 0 ? seconds / yardstick : 1.0;
    }
    a.suggestions = std::move(frontier);
    if (a.suggestions.empty() && haveNearest) {
        a.hasNearest = true;
        a.nearest = std::move(nearest);
        const Estimate e = estimate(a.nearest.scenario);
        a.nearest.peakDeviceBytes = e.peak.device;
        a.nearest.headroomBytes = e.headroomBytes;
        a.nearest.relativeStepTime = 1.0;
    }
    return a;
}

namespace {

nlohmann::json servingBlock(const ServingSuggestion &c, const ServingTarget &t)
{
    const auto &s = c.scenario;
    const auto &p = c.plan;
    nlohmann::json out = {
        {"gpu", s.gpu.preset.empty() ? s.gpu.name : s.gpu.preset},
        {"gpus", c.gpus},
        {"tensor_parallel", s.parallelism.tensorParallel},
        {"pipeline_parallel", s.parallelism.pipelineParallel},
        {"quantization", toString(s.serving.quantization)},
        {"kv_cache_dtype", toString(s.serving.kvCacheDtype)},
        {"max_model_len", t.tokens},
        {"relative_cost", std::round(c.relativeCost * 100) / 100},
        {"starts", p.status == ServingStatus::Ok},
        {"serves", c.serves},
        {"kv_cache_bytes", std::llround(std::max(0.0, p.kvCacheBytes))},
        {"kv_cache_tokens", p.kvCacheTokens},
        {"max_concurrency", std::round(p.maxConcurrency * 100) / 100},
        {"kv_headroom_tokens", c.kvHeadroomTokens},
        {"concurrency_headroom", std::round((p.maxConcurrency - double(t.requests)) * 100) / 100},
        {"weights_bytes", std::llround(p.weightsBytes)},
        {"decode_tokens_per_second_bound", std::round(c.decodeTokensPerSecond)}};
    if (!c.serves)
        out["short_by_bytes"] = std::llround(c.shortByBytes);
    if (const std::string failure = servingFailureText(p); !failure.empty())
        out["failure"] = failure;
    return out;
}

nlohmann::json changesJson(const ServingSuggestion &c)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto &[path, value] : c.changes)
        out[path] = value;
    return out;
}

std::string changesText(const ServingSuggestion &c)
{
    std::string out;
    for (const auto &[path, value] : c.changes) {
        if (path == "parallelism.gpus" || path == "gpu.preset" ||
            path == "parallelism.tensor_parallel" || path == "parallelism.pipeline_parallel")
            continue; // in their own columns
        if (!out.empty())
            out += ", ";
        out += path.substr(path.find('.') + 1) + " " +
               (value.is_string() ? value.get<std::string>() : value.dump());
    }
    return out.empty() ? "-" : out;
}

} // namespace

nlohmann::json servingAdviceToJson(const ServingAdvice &a)
{
    using nlohmann::json;
    json suggestions = json::array();
    for (const auto &c : a.suggestions)
        suggestions.push_back({{"changes", changesJson(c)},
                               {"scenario", scenarioToJson(c.scenario)},
                               {"fits", c.serves},
                               {"peak_device_bytes", std::llround(c.peakDeviceBytes)},
                               {"headroom_bytes", std::llround(c.headroomBytes)},
                               {"kind", changeKindKey(c.kind)},
                               {"relative_step_time", std::round(c.relativeStepTime * 1000) / 1000},
                               {"cost_basis", c.basis},
                               {"serving", servingBlock(c, a.target)}});
    json out = {{"format", "vramplan-advice"},
                {"version", 1},
                {"fits_now", a.servesNow},
                {"searched", a.searched},
                {"estimated", a.estimated},
                {"target",
                 {{"requests", a.target.requests},
                  {"tokens", a.target.tokens},
                  {"kv_tokens", a.target.requests * a.target.tokens}}},
                {"price_basis",
                 "relative_cost = GPUs x GiB of memory per GPU: the catalog has no prices, so "
                 "the GPU memory rented stands in for the price per hour"},
                {"now", servingBlock(a.now, a.target)},
                {"relative_step_time_of", a.relativeToOwn ? "the scenario as it is"
                                                          : "the first suggestion"},
                {"suggestions", suggestions},
                {"notes", a.notes}};
    if (a.hasNearest)
        out["nearest"] = {{"changes", changesJson(a.nearest)},
                          {"over_by_bytes", std::llround(a.nearest.shortByBytes)},
                          {"scenario", scenarioToJson(a.nearest.scenario)},
                          {"serving", servingBlock(a.nearest, a.target)}};
    return out;
}

std::string servingAdviceTable(const ServingAdvice &a, const Scenario &s)
{
    std::ostringstream out;
    const auto &t = a.target;
    out << (s.name.empty() ? std::string("scenario") : s.name) << '\n'
        << "target: " << t.requests << " concurrent requests of " << t.tokens << " tokens ("
        << t.requests * t.tokens << " KV tokens) under " << toString(s.serving.engine) << "\n"
        << "as it is: " << (a.servesNow ? "serves" : "does not serve") << " ("
        << number(a.now.plan.maxConcurrency, 1) << " requests at once); searched " << a.searched
        << " candidates (" << a.estimated << " estimated)\n";
    for (const auto &note : a.notes)
        out << "note: " << note << '\n';
    out << '\n';
    if (a.suggestions.empty()) {
        out << "nothing serves the target";
        if (a.hasNearest) {
            const auto &n = a.nearest;
            out << ": the nearest is " << n.gpus << " x " << n.scenario.gpu.name << " (TP "
                << n.scenario.parallelism.tensorParallel << ", PP "
                << n.scenario.parallelism.pipelineParallel << ", " << changesText(n)
                << "), which holds " << number(n.plan.maxConcurrency, 1) << " of "
                << t.requests << " requests, short by " << gibText(n.shortByBytes)
                << " per GPU";
            if (const std::string failure = servingFailureText(n.plan); !failure.empty())
                out << "\n  " << failure;
        }
        out << '\n';
    } else {
        char line[512];
        std::snprintf(line, sizeof line, "%7s %4s  %-18s %2s %2s %11s %8s %9s %8s  %s\n", "cost",
                      "gpus", "gpu", "tp", "pp", "kv tokens", "requests", "headroom", "decode",
                      "changes");
        out << line;
        for (const auto &c : a.suggestions) {
            const auto &sc = c.scenario;
            std::snprintf(line, sizeof line, "%7.1f %4lld  %-18s %2lld %2lld %11lld %8.1f %9s %7.2fx  %s\n",
                          c.relativeCost, static_cast<long long>(c.gpus),
                          (sc.gpu.preset.empty() ? sc.gpu.name : sc.gpu.preset).c_str(),
                          static_cast<long long>(sc.parallelism.tensorParallel),
                          static_cast<long long>(sc.parallelism.pipelineParallel),
                          static_cast<long long>(c.plan.kvCacheTokens), c.plan.maxConcurrency,
                          formatBytes(c.headroomBytes).c_str(), c.relativeStepTime,
                          changesText(c).c_str());
            out << line;
        }
    }
    out << "\ncost: GPUs x GiB per GPU (GPU memory rented: the catalog has no prices); "
           "requests: concurrent requests of "
        << t.tokens
        << " tokens the KV cache holds; decode: time per decode step (memory-bandwidth "
           "roofline) over "
        << (a.relativeToOwn ? "the scenario's own" : "the first suggestion's") << "\n";
    return out.str();
}

} // namespace vramplan
