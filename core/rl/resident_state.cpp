// What stays on a trainer GPU outside the phase that uses it: the policy's weights and optimizer
// states, the reference and reward models, the critic, the runtime, and the rollout engine
// while it sleeps. Also the phase totals and the holder of each phase's peak.

#include "rl/rl_setup.h"

#include <algorithm>

namespace vramplan {

void RlPhaseSink::finish(double extraReserved)
{
    double inside = 0, outside = 0;
    for (const auto &item : m_phase.items) {
        (item.outsideAllocator ? outside : inside) += item.bytes();
        m_phase.byComponent[static_cast<int>(item.component)] += item.bytes();
    }
    m_phase.byComponent[static_cast<int>(Component::Framework)] += extraReserved;
    m_phase.allocated = inside;
    m_phase.reserved = inside + extraReserved;
    m_phase.device = m_phase.reserved + outside;
    const auto most = std::max_element(m_byParty.begin(), m_byParty.end());
    m_phase.holder = rlPartyName(static_cast<RlParty>(most - m_byParty.begin()));
    m_phase.holderBytes = *most;
}

void addResident(const RlSetup &r, RlPhaseKind phase, RlPhaseSink &out)
{
    const RlConfig &rl = r.scenario->rl;
    // verl fsdp_workers.py: with param_offload the actor's FSDP weights go to CPU once synced to
    // the engine (generate_sequences) and come back for compute_log_prob; optimizer_offload keeps
    // the states on CPU outside update_actor (offload_fsdp_optimizer / load_fsdp_optimizer).
    const bool weightsAway = rl.offload.policyParameters && phase == RlPhaseKind::Generation &&
                             rl.rollout.engine != ServingEngine::Transformers;
    if (!weightsAway)
        out.add(RlParty::Policy, Component::Parameters, "policy weights (resident)",
                "the update step's weights, kept between steps", "core/training (estimate())",
                r.policyWeights);
    if (!rl.offload.policyOptimizer)
        out.add(RlParty::Policy, Component::OptimizerStates, "policy optimizer states (resident)",
                "the update step's states, kept between steps", "core/training (estimate())",
                r.policyOptimizer);
    if (!rl.offload.reference)
        out.add(RlParty::Reference, Component::Parameters, "reference model weights",
                "P * c / shard (16-bit, sharded like the policy under ZeRO-3/FSDP)",
                "verl fsdp_workers.py (non-actor roles in bfloat16); trl grpo_trainer.py ref_model",
                r.referenceWeights);
    out.add(RlParty::RewardModel, Component::Parameters, "reward model weights",
            "P_rm * 2 / shard", "verl fsdp_workers.py RewardModelWorker (bfloat16, FSDP)",
            r.rewardWeights);
    out.add(RlParty::Critic, Component::OptimizerStates, "critic weights and optimizer states",
            "as the policy's (the actor's model with a value head)",
            "verl fsdp_workers.py CriticWorker (critic.model.path = the actor's)", r.criticState);
    out.add(RlParty::Runtime, Component::Framework, "CUDA context and NCCL",
            "as the update step has them (device - reserved)", "core/estimate_peak.cpp",
            r.runtimeOutside, true);
}

void addEngineAsleep(const RlSetup &r, RlPhaseSink &out)
{
    if (!r.engineOwnWeights)
        return;
    const ServingPlan &p = r.engine;
    // Sleep (vllm/device_allocator/cumem.py CuMemAllocator.sleep): level 1 copies the weights
    // to pinned CPU memory and unmaps them, level 2 discards them; both discard the KV cache.
    // Memory outside its pool stays: CUDA graphs' private pools, cuBLAS workspaces, NCCL.
    if (r.sleepLevel == 0) {
        out.add(RlParty::Engine, Component::Parameters, "engine weights (engine awake)",
                "as at generation: no sleep mode", "verl rollout.yaml free_cache_engine; trl "
                "grpo_config.py vllm_enable_sleep_mode", p.weightsBytes);
        out.add(RlParty::Engine, Component::KvCache, "engine KV cache (engine awake)",
                "as at generation: no sleep mode", "vLLM v1/core/kv_cache_utils.py",
                std::max(0.0, p.kvCacheBytes));
    }
    out.add(RlParty::Engine, Component::Framework, "engine CUDA graphs (kept between generations)",
            "largest batch's pool + per-graph nodes", "vllm cumem.py: graph pools not in the "
            "sleep pool", p.cudaGraphBytes, true);
    out.add(RlParty::Engine, Component::Framework, "engine memory outside PyTorch",
            "cuBLAS workspaces, NCCL of the engine", "vLLM non_torch_memory logs",
            p.nonTorchBytes, true);
}

} // namespace vramplan
