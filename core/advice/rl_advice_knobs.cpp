// The knobs of the RL frameworks, each option a complete scenario (rl_advice_knobs.h). Where a
// knob's effect comes from the frameworks' code, the comment names the file.

#include "advice/rl_advice_knobs.h"

#include "formats/estimate_json.h"

#include <algorithm>

namespace vramplan::rl_advice {
namespace {

std::string gib(double bytes)
{
    return formatBytes(bytes);
}

bool colocatedEngine(const Scenario &s)
{
    const RolloutConfig &r = s.rl.rollout;
    return r.placement == RolloutPlacement::Colocated && r.engine != ServingEngine::Transformers;
}

bool offline(const Scenario &s)
{
    return s.rl.algorithm == RlAlgorithm::Dpo || s.rl.algorithm == RlAlgorithm::Orpo ||
           s.rl.algorithm == RlAlgorithm::Kto;
}

template <typename Set>
Option option(const Scenario &from, Changes changes, Set set)
{
    Option o{std::move(changes), set, from};
    set(o.scenario);
    return o;
}

// Halvings of `from` down to 1 (from excluded), the largest first.
std::vector<int64_t> halvings(int64_t from)
{
    std::vector<int64_t> out;
    for (int64_t v = from / 2; v >= 1; v /= 2)
        out.push_back(v);
    if (from > 1 && (out.empty() || out.back() != 1))
        out.push_back(1);
    return out;
}

} // namespace

std::vector<Knob> knobsOf(const Scenario &s, bool hardware)
{
    std::vector<Knob> out;
    const RlConfig &rl = s.rl;
    if (colocatedEngine(s) && !offline(s)) {
        // The engine's budget (vLLM gpu_worker.py determine_available_memory): lower leaves
        // it a smaller KV cache, fewer sequences decoding at once; higher is what an engine
        // whose weights do not fit its budget needs to start at all. The highest that fits
        // comes first: the most KV cache.
        Knob k;
        for (double u : {0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35,
                         0.3, 0.25, 0.2, 0.15, 0.1})
            if (u != rl.rollout.gpuMemoryUtilization)
                k.options.push_back(option(s, {{"rl.rollout.gpu_memory_utilization", u}},
                                           [u](Scenario &t) { t.rl.rollout.gpuMemoryUtilization = u; }));
        k.cost = [](const Scenario &, const Estimate &e) {
            return "The engine's budget is " + gib(e.rl.engineBudgetBytes) +
                   " per GPU: what is left after its weights is the KV cache, and a smaller one "
                   "decodes fewer responses at once, so generation takes longer.";
        };
        out.push_back(std::move(k));
        // Sleep frees the engine's weights and KV cache between generations
        // (vllm/device_allocator/cumem.py).
        Knob sleep;
        for (int64_t level : {1, 2})
            if (rl.rollout.sleepLevel < level)
                sleep.options.push_back(option(s, {{"rl.rollout.sleep_level", level}},
                                               [level](Scenario &t) { t.rl.rollout.sleepLevel = level; }));
        sleep.cost = [](const Scenario &to, const Estimate &e) {
            return to.rl.rollout.sleepLevel == 1
                       ? "The engine sleeps after each generation: its weights (" +
                             gib(e.rl.sleepCpuBytes) +
                             ") are copied to pinned CPU memory and back on every step."
                       : std::string("The engine discards its weights after each generation and "
                                     "is sent them again from the trainer on every step.");
        };
        out.push_back(std::move(sleep));
    }
    const auto flag = [&](const char *path, bool current, bool RlOffload::*member,
                          std::string sentence) {
        if (current)
            return;
        Knob k;
        k.options.push_back(option(s, {{path, true}}, [member](Scenario &t) { t.rl.offload.*member = true; }));
        k.cost = [sentence](const Scenario &, const Estimate &) { return sentence; };
        out.push_back(std::move(k));
    };
    if (rl.referenceModel && rl.beta != 0 && rl.algorithm != RlAlgorithm::Orpo)
        flag("rl.offload.reference", rl.offload.reference, &RlOffload::reference,
             "The reference's weights wait in CPU memory and stream in layer by layer for its "
             "forward: a slower experience phase.");
    flag("rl.offload.policy_optimizer", rl.offload.policyOptimizer, &RlOffload::policyOptimizer,
         "The optimizer states move to CPU memory outside the update and back for it, on every "
         "step.");
    if (!offline(s))
        flag("rl.offload.policy_parameters", rl.offload.policyParameters,
             &RlOffload::policyParameters,
             "The policy's weights leave the GPU during generation and come back for the "
             "log-probs, on every step.");
    {
        const int64_t current = rl.logProbMicroBatchSize > 0 ? rl.logProbMicroBatchSize
                                                             : s.training.microBatchSize;
        Knob k;
        for (int64_t b : halvings(current))
            k.options.push_back(option(s, {{"rl.log_prob_micro_batch_size", b}},
                                       [b](Scenario &t) { t.rl.logProbMicroBatchSize = b; }));
        k.cost = [](const Scenario &to, const Estimate &) {
            return "The no-grad forwards score " + std::to_string(to.rl.logProbMicroBatchSize) +
                   " sequences at a time: more, smaller forwards in the experience phase.";
        };
        out.push_back(std::move(k));
    }
    {
        // The PPO micro-batch per GPU, the mini-batch kept by gradient accumulation.
        const int64_t b = s.training.microBatchSize;
        Knob k;
        for (int64_t to : halvings(b)) {
            if (b % to != 0)
                continue;
            const int64_t accum = s.training.gradientAccumulationSteps * (b / to);
            k.options.push_back(option(s, {{"training.micro_batch_size", to},
                                           {"training.gradient_accumulation_steps", accum}},
                                       [to, accum](Scenario &t) {
                                           t.training.microBatchSize = to;
                                           t.training.gradientAccumulationSteps = accum;
                                       }));
        }
        k.cost = [b](const Scenario &to, const Estimate &) {
            return "The update runs " + std::to_string(b / to.training.microBatchSize) +
                   " times as many, smaller micro-batches: the same mini-batch, a slower update.";
        };
        out.push_back(std::move(k));
    }
    if (!offline(s)) {
        Knob k;
        k.kind = ChangeKind::Method;
        for (int64_t g : halvings(rl.groupSize))
            if (g >= 2) // a group of one has no baseline to compare against (GRPO, RLOO)
                k.options.push_back(option(s, {{"rl.group_size", g}},
                                           [g](Scenario &t) { t.rl.groupSize = g; }));
        k.cost = [](const Scenario &to, const Estimate &) {
            return "Fewer responses per prompt (" + std::to_string(to.rl.groupSize) +
                   "): a noisier advantage baseline.";
        };
        out.push_back(std::move(k));
    }
    {
        // Responses cut shorter, in steps of 256 tokens (the longest that fits first).
        Knob k;
        k.kind = ChangeKind::Method;
        for (int64_t r = (rl.responseTokens - 1) / 256 * 256; r >= 256; r -= 256)
            k.options.push_back(option(s, {{"rl.response_tokens", r}},
                                       [r](Scenario &t) { t.rl.responseTokens = r; }));
        k.cost = [](const Scenario &to, const Estimate &) {
            return "Responses stop at " + std::to_string(to.rl.responseTokens) +
                   " tokens: longer answers are cut off and score as they stand.";
        };
        out.push_back(std::move(k));
    }
    if (s.training.finetune.method == FinetuneMethod::Full) {
        Knob k;
        k.kind = ChangeKind::Method;
        k.options.push_back(option(s, {{"training.finetune.method", "lora"}}, [](Scenario &t) {
            t.training.finetune.method = FinetuneMethod::Lora;
        }));
        k.cost = [](const Scenario &to, const Estimate &) {
            return "Only LoRA adapters of rank " + std::to_string(to.training.finetune.loraRank) +
                   " train, and the reference is the base with them disabled: a smaller update "
                   "than full fine-tuning.";
        };
        out.push_back(std::move(k));
    }
    if (hardware && colocatedEngine(s) && !offline(s)) {
        const int64_t gpus = std::max<int64_t>(1, rl.rollout.tensorParallel);
        Knob k;
        k.kind = ChangeKind::Hardware;
        k.options.push_back(option(s, {{"rl.rollout.placement", "separate"}, {"rl.rollout.gpus", gpus}},
                                   [gpus](Scenario &t) {
                                       t.rl.rollout.placement = RolloutPlacement::Separate;
                                       t.rl.rollout.gpus = gpus;
                                   }));
        k.cost = [gpus](const Scenario &, const Estimate &) {
            return std::to_string(gpus) + (gpus > 1 ? " more GPUs hold" : " more GPU holds") +
                   " the engine, and the policy's weights are sent to it after every update.";
        };
        out.push_back(std::move(k));
    }
    // A knob with nothing left to try is no knob; the others are known by their first path.
    std::erase_if(out, [](const Knob &k) { return k.options.empty(); });
    for (Knob &k : out)
        k.path = k.options.front().changes.front().first;
    return out;
}

} // namespace vramplan::rl_advice
