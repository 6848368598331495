// The cheapest GPU / TP / quantisation that serves N requests of L tokens (serving_advice.h,
// docs/serving.md "Advice"). Every candidate is planned as the engine allocates it
// (serving/) and, when the plan serves, estimated in full for the device total.

#include "advice/serving_advice.h"

#include "advice/serving_advice_text.h"
#include "advice/serving_candidates.h"
#include "advice/step_time.h"
#include "formats/enum_names.h"
#include "formats/scenario_json.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

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

} // namespace

using namespace serving_advice_internal;

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

} // namespace vramplan
