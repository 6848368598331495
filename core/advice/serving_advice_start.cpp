#include "advice/serving_advice_start.h"

#include "advice/serving_advice.h"
#include "serving/serving.h"

#include <cmath>
#include <functional>
#include <optional>

namespace vramplan {
namespace {

bool starts(const Scenario &s)
{
    return planServing(s).status == ServingStatus::Ok;
}

// The largest n in [low, high] for which `ok(n)` holds, assuming it holds up to some n and not
// beyond; nullopt when it does not hold at `low`.
std::optional<int64_t> largest(int64_t low, int64_t high, const std::function<bool(int64_t)> &ok)
{
    if (low > high || !ok(low))
        return std::nullopt;
    while (low < high) {
        const int64_t mid = low + (high - low + 1) / 2;
        if (ok(mid))
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}

// The smallest n in [low, high] for which `ok(n)` holds, assuming it holds from some n on.
std::optional<int64_t> smallest(int64_t low, int64_t high, const std::function<bool(int64_t)> &ok)
{
    if (low > high || !ok(high))
        return std::nullopt;
    while (low < high) {
        const int64_t mid = low + (high - low) / 2;
        if (ok(mid))
            high = mid;
        else
            low = mid + 1;
    }
    return low;
}

// `s` with one change to its serving section (which exists: the scenario has a server).
Scenario with(const Scenario &s, const std::function<void(Scenario &)> &change)
{
    Scenario out = s;
    change(out);
    return out;
}

} // namespace

std::vector<StartingSetting> settingsThatStart(const Scenario &s)
{
    std::vector<StartingSetting> out;
    if (!s.serving.present || s.training.mode != Mode::Inference || starts(s))
        return out;
    const ResolvedServing r = resolveServing(s);
    if (s.serving.engine == ServingEngine::Transformers) {
        const auto batch = largest(1, s.training.microBatchSize - 1, [&](int64_t n) {
            return starts(with(s, [n](Scenario &x) { x.training.microBatchSize = n; }));
        });
        if (batch)
            out.push_back({"training.micro_batch_size", *batch});
    } else {
        const auto seqs = largest(1, r.maxNumSeqs - 1, [&](int64_t n) {
            return starts(with(s, [n](Scenario &x) { x.serving.maxNumSeqs = n; }));
        });
        if (seqs)
            out.push_back({"serving.max_num_seqs", *seqs});
        if (s.serving.engine == ServingEngine::Vllm) {
            const auto batched = largest(r.maxNumSeqs, r.maxNumBatchedTokens - 1, [&](int64_t n) {
                return starts(with(s, [n](Scenario &x) { x.serving.maxNumBatchedTokens = n; }));
            });
            if (batched)
                out.push_back({"serving.max_num_batched_tokens", *batched});
        }
        // In hundredths, as the engines' flags are written: 0.91 .. 0.99.
        const int64_t now = int64_t(std::floor(r.utilization * 100 + 1e-6));
        const auto hundredths = smallest(now + 1, 99, [&](int64_t u) {
            return starts(with(s, [u](Scenario &x) { x.serving.gpuMemoryUtilization = u / 100.0; }));
        });
        if (hundredths)
            out.push_back({"serving.gpu_memory_utilization", double(*hundredths) / 100.0});
    }
    if (s.serving.engine != ServingEngine::Transformers ||
        (s.serving.cache == GenerateCache::Static && s.serving.maxModelLen > 0)) {
        const auto length = largest(1, r.maxModelLen - 1, [&](int64_t n) {
            return starts(with(s, [n](Scenario &x) { x.serving.maxModelLen = n; }));
        });
        if (length)
            out.push_back({"serving.max_model_len", *length});
    }
    if (s.serving.kvCacheDtype == KvCacheDtype::Auto) {
        const Scenario fp8 = with(s, [](Scenario &x) { x.serving.kvCacheDtype = KvCacheDtype::Fp8; });
        if (kvFp8Allowed(s) && starts(fp8))
            out.push_back({"serving.kv_cache_dtype", "fp8"});
    }
    return out;
}

} // namespace vramplan
