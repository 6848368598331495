#pragma once
// The result of an RL estimate (rl/rl_estimate.h, docs/rl.md): memory per trainer GPU in each
// phase of one RL step (generation, experience, training), with the items of each, the phase
// that peaks and what holds it. Plain values, held by Estimate::rl (estimate.h).

#include "estimate_terms.h"

#include <array>
#include <string_view>

namespace vramplan {

enum class RlPhaseKind
{
    Generation, // the engine generates rollouts; the trainer's resident state beside it
    Experience, // no-grad forwards: log-probabilities, reference, values, rewards
    Training    // the policy's (and critic's) update
};
constexpr int rlPhaseCount = 3;
constexpr std::string_view rlPhaseKey(RlPhaseKind kind)
{
    return kind == RlPhaseKind::Generation   ? "generation"
           : kind == RlPhaseKind::Experience ? "experience"
                                             : "training";
}

struct RlPhase
{
    RlPhaseKind kind = RlPhaseKind::Generation;
    bool present = true; // DPO, ORPO, KTO have no generation
    double allocated = 0; // torch.cuda.max_memory_allocated() of the phase
    double reserved = 0;
    double device = 0; // nvidia-smi: with the engine's memory outside PyTorch and the context
    std::array<double, componentCount> byComponent{}; // sums to device
    ItemList items;
    std::string_view holder; // the party holding the most: "rollout engine", "policy", ...
    double holderBytes = 0;
};

struct RlPlan
{
    bool present = false;
    // Default-initialised, not `{}`: value-initialising would zero every phase's item storage
    // (about 20 KB) on each estimate, RL or not (3.8k instructions, callgrind).
    std::array<RlPhase, rlPhaseCount> phases;
    RlPhaseKind peak = RlPhaseKind::Training;
    double sleepFreedBytes = 0;  // what the engine's sleep frees on each trainer GPU
    double sleepCpuBytes = 0;    // level 1: the engine's weights kept in CPU memory
    double engineBudgetBytes = 0; // colocated: utilization x what CUDA reports
    bool engineStarts = true;     // the engine's KV cache holds at least one request

    const RlPhase &phase(RlPhaseKind kind) const { return phases[static_cast<int>(kind)]; }
};

} // namespace vramplan
