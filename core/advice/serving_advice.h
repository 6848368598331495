#pragma once
// "What is the cheapest way to serve N concurrent requests of L tokens?" (issue 14,
// `vramplan-cli advise` on an inference scenario with a `serving` section; docs/serving.md).
//
// The search keeps the model, the engine and its settings, and varies what a deployment
// chooses: the GPU kind (every catalog GPU), the layout (by GPU count 1, 2, 4, 8, 16: tensor
// parallelism alone where the heads allow it, else two pipeline stages of half the width; TP
// stays within a node of 8), the weight quantization (the checkpoint's own, bf16, fp8 where the
// GPU has fp8 tensor cores, 4-bit AWQ (GPTQ on Volta and ROCm) where vLLM has the kernel, MXFP4
// for models that ship it) and the KV cache dtype (auto, fp8 where the GPU has fp8).
// max_model_len is set to L. A candidate serves the target when the engine starts
// (serving.h), its own concurrency figure at max_model_len = L is at least N (for full
// attention: kv_cache_tokens >= N x L), and the estimate's device total fits the GPU.
//
// Cost: GPUs x a relative price per GPU-hour. The catalog carries no prices (cloud list
// prices vary by provider, region and month, and the catalog's consumer cards have none), so
// the price proxy is the GPU's memory in GiB: the quantity the plan is about. The ranking is
// therefore "GPU memory rented", and says so in every suggestion's basis. The list is the
// frontier of cost against numerics changes (weights, KV dtype), cheapest first.
//
// Example: Llama-3.1-8B under vLLM, 16 requests of 32768 tokens: the KV cache must hold
// 16 x 32768 x 128 KiB = 64 GiB; one H100 80GB leaves 54.8 GiB (13.7 requests). The cheapest
// answer is one 48 GB L40/L40S with AWQ weights and an fp8 KV cache (45 GiB rented); two
// RTX 5090s at TP 2 need only the fp8 KV cache (63.7 GiB); without numerics changes, one
// H100 NVL (93.6 GiB).
//
//     ServingAdvice a = adviseServing(scenario, {16, 32768});
//     a.suggestions.front().scenario; // the cheapest, complete, as a scenario file holds it

#include "advice/advisor.h"
#include "estimate.h"
#include "scenario.h"
#include "serving/serving.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace vramplan {

struct GpuSpec;

// N concurrent requests of L tokens each. 0: from the scenario (requests: serving.max_num_seqs
// when the file sets it, else 1, since the engines' default of 256 or 1024 is a scheduler cap,
// not a load; transformers: the micro-batch. tokens: the resolved max_model_len).
struct ServingTarget
{
    int64_t requests = 0;
    int64_t tokens = 0;
};

struct ServingAdviceOptions
{
    int maxSuggestions = 12;
    bool hardware = true; // false: only the scenario's own GPU kind (TP and numerics still vary)
};

struct ServingSuggestion
{
    Scenario scenario;                                           // complete, with the target in it
    std::vector<std::pair<std::string, nlohmann::json>> changes; // dotted path -> new value
    ServingPlan plan;                                            // per GPU, as the engine reports
    ChangeKind kind = ChangeKind::SameSemantics; // numerics when weights or KV dtype change
    int64_t gpus = 1;
    double gpuMemoryGiB = 0;   // the price proxy of one GPU
    double relativeCost = 0;   // gpus x gpuMemoryGiB ("GiB of GPU memory rented")
    double peakDeviceBytes = 0, headroomBytes = 0; // the estimate's device total against the GPU
    int64_t kvHeadroomTokens = 0;  // KV tokens beyond requests x tokens (negative: short)
    double shortByBytes = 0;       // per GPU, KV cache (and device) bytes missing; 0 when it serves
    // Memory-bandwidth roofline of one decode step with every request at L tokens of context:
    // requests x bandwidth / (pp x weights + requests x L x KV bytes per token), per GPU.
    double decodeTokensPerSecond = 0;
    // That step's time over the scenario's own when it serves the target, else over the first
    // suggestion's (ServingAdvice::relativeToOwn).
    double relativeStepTime = 1;
    bool serves = false;
    std::string basis; // one sentence: the cost and the numbers behind it
};

struct ServingAdvice
{
    ServingTarget target; // resolved
    bool servesNow = false; // the scenario itself, with max_model_len = L (and max_num_seqs >= N)
    ServingSuggestion now;  // the scenario itself, evaluated
    int64_t searched = 0;   // candidates planned
    int64_t estimated = 0;  // of them, estimated in full (the ones whose plan serves)
    std::vector<ServingSuggestion> suggestions; // cheapest first
    bool hasNearest = false;
    ServingSuggestion nearest; // when nothing serves: the one serving the largest share
    std::vector<std::string> notes; // caveats that apply to every suggestion
    bool relativeToOwn = false;     // relativeStepTime's yardstick: the scenario (else the first)
};

// True for an inference scenario with a serving section (what adviseServing takes).
bool isServingScenario(const Scenario &scenario);

// The target with its defaults from the scenario filled in.
ServingTarget resolveTarget(const Scenario &scenario, ServingTarget target);

// The scenario with the target applied: max_model_len = tokens, max_num_seqs raised to
// requests where the engine's would cap it (transformers: micro-batch and prompt + new tokens).
Scenario withTarget(const Scenario &scenario, const ServingTarget &target);

// The scenario on another GPU kind (preset, name, architecture, capacity from the catalog).
Scenario onGpu(const Scenario &scenario, const GpuSpec &gpu);

// Which settings the search tries on a GPU for this scenario's model and engine.
bool quantizationAllowed(const Scenario &scenario, WeightQuantization q);
bool kvFp8Allowed(const Scenario &scenario);
std::vector<WeightQuantization> searchedQuantizations(const Scenario &scenario);
std::vector<int64_t> searchedTensorParallel(const Scenario &scenario); // 1, 2, 4, 8 that hold

// One candidate, judged on its own: `s` must already carry the target (withTarget).
ServingSuggestion evaluateServing(const Scenario &base, const Scenario &s,
                                  const ServingTarget &target);

ServingAdvice adviseServing(const Scenario &scenario, ServingTarget target = {},
                            const ServingAdviceOptions &options = {});

// SPEC §3's advice JSON (`vramplan-advice`) with a `serving` block per suggestion
// (docs/serving.md, "Advice").
nlohmann::json servingAdviceToJson(const ServingAdvice &advice);

// The table for people (vramplan-cli advise --format table).
std::string servingAdviceTable(const ServingAdvice &advice, const Scenario &scenario);

} // namespace vramplan
