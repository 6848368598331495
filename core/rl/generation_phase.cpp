// Generation: the rollout engine awake on the trainer's GPU (colocated vLLM or SGLang: weights,
// KV cache, the profiling run's activation peak, memory outside PyTorch and CUDA graphs, all as
// the serving planner sizes them within gpu_memory_utilization x what CUDA reports), or
// transformers' generate in the training process (the policy's own weights, a KV cache for the
// batch), with the trainer's resident state beside it. An engine on GPUs of its own (placement
// separate: TRL vllm_mode "server", OpenRLHF's vllm_num_engines) puts none of it here.

#include "rl/rl_setup.h"

#include <algorithm>

namespace vramplan {

void addGeneration(const RlSetup &r, RlPhaseSink &out)
{
    addResident(r, RlPhaseKind::Generation, out);
    if (!r.engineOnTrainer)
        return;
    const ServingPlan &p = r.engine;
    if (r.engineOwnWeights)
        // verl's sharding manager (fsdp_vllm.py) and TRL's _move_model_to_vllm load the policy's
        // weights into the engine's own copy: a second copy in 16 bits.
        out.add(RlParty::Engine, Component::Parameters, "engine weights (a copy of the policy)",
                "elements * bytes per weight (+ rotary cache)",
                "core/serving engine_weights.cpp; verl sharding_manager/fsdp_vllm.py",
                p.weightsBytes);
    out.add(RlParty::Engine, Component::KvCache,
            r.engineOwnWeights ? "engine KV cache (what remains of the budget)"
                               : "generate's KV cache (the batch, prompt + response)",
            r.engineOwnWeights ? "utilization x CUDA total - weights - activations - non-torch"
                               : "2 * b * s * kv * d * c per layer",
            r.engineOwnWeights ? "vLLM v1/worker/gpu_worker.py determine_available_memory"
                               : "transformers DynamicCache",
            std::max(0.0, p.kvCacheBytes));
    out.add(RlParty::Engine, Component::Temporary, "engine activation peak",
            "max(tokens * (3h + 3f/t) * c, sampler rows * V * (c + 24))",
            "vLLM gpu_model_runner.py profile_run", p.activationBytes);
    if (r.engineOwnWeights) {
        out.add(RlParty::Engine, Component::Framework, "engine memory outside PyTorch",
                "cuBLAS workspaces, NCCL of the engine", "vLLM non_torch_memory logs",
                p.nonTorchBytes, true);
        out.add(RlParty::Engine, Component::Framework, "engine CUDA graphs",
                "largest batch's pool + per-graph nodes (none with enforce_eager)",
                "vLLM compilation config; verl rollout.yaml enforce_eager", p.cudaGraphBytes,
                true);
    }
}

} // namespace vramplan
