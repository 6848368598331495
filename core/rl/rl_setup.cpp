// The settings an RL run takes once its framework's defaults are filled in, the policy's update
// step from the training estimator, the rollout engine's plan from the serving planner, and what
// each model keeps on a trainer GPU. Every default names the file of the release it was read in.

#include "rl/rl_setup.h"

#include "model/model_weights.h"

#include <algorithm>

namespace vramplan {
namespace {

bool offlineAlgorithm(RlAlgorithm a)
{
    return a == RlAlgorithm::Dpo || a == RlAlgorithm::Orpo || a == RlAlgorithm::Kto;
}

// verl and OpenRLHF run the policy's forward over the whole sequence; TRL and ms-swift (built on
// TRL's GRPOTrainer) pass logits_to_keep = response + 1 (trl/trainer/grpo_trainer.py
// _get_per_token_logps_and_entropies, v0.21).
bool trlFamily(RlFramework f)
{
    return f == RlFramework::Trl || f == RlFramework::MsSwift;
}

double defaultUtilization(const RlConfig &rl)
{
    switch (rl.framework) {
    case RlFramework::Verl:
        return 0.5; // verl/trainer/config/rollout/rollout.yaml gpu_memory_utilization (v0.5)
    case RlFramework::Trl:
        return 0.3; // trl/trainer/grpo_config.py vllm_gpu_memory_utilization (v0.18+)
    default:
        return 0.9; // vLLM's own default (vllm/engine/arg_utils.py); the framework's not read
    }
}

int64_t defaultSleepLevel(const RlConfig &rl)
{
    // verl: free_cache_engine true, vllm_rollout_spmd.py inference_engine.sleep(level=1);
    // TRL: vllm_enable_sleep_mode false (grpo_config.py, v0.23+: level 1 when enabled).
    return rl.framework == RlFramework::Verl ? 1 : 0;
}

ServingPlan planEngine(const Scenario &s, const RlSetup &r)
{
    Scenario e = s;
    e.rl = RlConfig{};
    e.training.mode = Mode::Inference;
    e.training.finetune.method = FinetuneMethod::Full; // the engine serves the base in 16 bits
    e.training.sequenceLength = s.rl.promptTokens;
    e.parallelism = ParallelConfig{};
    e.parallelism.gpus = e.parallelism.tensorParallel = s.rl.rollout.tensorParallel;
    ServingConfig &v = e.serving;
    v = ServingConfig{};
    v.present = true;
    v.engine = s.rl.rollout.engine;
    v.engineVersion = s.rl.rollout.engineVersion;
    v.gpuMemoryUtilization = r.utilization;
    v.maxModelLen = r.tokens;
    v.maxNumSeqs = r.maxNumSeqs;
    v.cudaGraphs = r.cudaGraphs;
    v.maxNewTokens = s.rl.responseTokens;
    return planServing(e);
}

// Bytes of the items of one component the update step keeps from one step to the next (alive
// in every phase of the step, inside the allocator): the policy's weights and optimizer states.
double residentBytes(const Estimate &e, Component c)
{
    double bytes = 0;
    for (const auto &item : e.items)
        if (item.component == c && !item.outsideAllocator &&
            (item.phases & trainingPhases) == trainingPhases)
            bytes += item.bytes();
    return bytes;
}

} // namespace

std::string_view rlPartyName(RlParty party)
{
    switch (party) {
    case RlParty::Engine:
        return "rollout engine";
    case RlParty::Policy:
        return "policy";
    case RlParty::Reference:
        return "reference model";
    case RlParty::RewardModel:
        return "reward model";
    case RlParty::Critic:
        return "critic";
    case RlParty::Runtime:
        return "CUDA context and NCCL";
    }
    return "?";
}

RlSetup resolveRl(const Scenario &s)
{
    const RlConfig &rl = s.rl;
    RlSetup r;
    r.scenario = &s;
    r.offline = offlineAlgorithm(rl.algorithm);
    r.tokens = rl.promptTokens + rl.responseTokens;
    r.c = s.training.precision == Precision::Fp32 ? 4.0 : 2.0;
    const bool lora = s.training.finetune.method != FinetuneMethod::Full;
    // ORPO is reference-free (its odds ratio needs the policy only); beta 0 drops the reference
    // (TRL grpo_trainer.py: `if self.beta == 0.0: self.ref_model = None`).
    r.reference = rl.referenceModel && rl.beta != 0 && rl.algorithm != RlAlgorithm::Orpo;
    // LoRA: the reference is the base with the adapters disabled (TRL grpo_trainer.py
    // `is_peft_model(model)`, dpo_trainer.py null_ref_context; verl ref_in_actor); DPO with
    // precompute_ref_log_probs computes them once before training, with no reference model kept
    // (trl/trainer/dpo_trainer.py: ref_model None when precompute_ref_log_probs).
    r.referenceCopy = r.reference && !lora && !(r.offline && rl.precomputeRefLogProbs);
    r.entropy = rl.entropy >= 0 ? rl.entropy == 1 : rl.framework == RlFramework::Verl;
    r.ownLogitsOnly = trlFamily(rl.framework) && !r.offline;
    r.utilization = rl.rollout.gpuMemoryUtilization > 0 ? rl.rollout.gpuMemoryUtilization
                                                        : defaultUtilization(rl);
    r.sleepLevel = rl.rollout.sleepLevel >= 0 ? rl.rollout.sleepLevel : defaultSleepLevel(rl);
    // verl rollout.yaml enforce_eager: true (v0.5); TRL's LLM(...) leaves CUDA graphs on.
    r.cudaGraphs = rl.rollout.cudaGraphs >= 0 ? rl.rollout.cudaGraphs == 1
                                              : rl.framework != RlFramework::Verl;
    // verl rollout.yaml max_num_seqs 1024; TRL: per_device_train_batch_size x
    // vllm_tensor_parallel_size x steps_per_generation (grpo_trainer.py, LLM(...)), the last
    // defaulting to gradient_accumulation_steps.
    r.maxNumSeqs = rl.rollout.maxNumSeqs > 0 ? rl.rollout.maxNumSeqs
                   : rl.framework == RlFramework::Verl ? 1024
                   : trlFamily(rl.framework)
                       ? s.training.microBatchSize * rl.rollout.tensorParallel *
                             s.training.gradientAccumulationSteps
                       : 256;
    r.logProbMicroBatch =
        rl.logProbMicroBatchSize > 0 ? rl.logProbMicroBatchSize : s.training.microBatchSize;
    r.shard = s.parallelism.zeroStage >= 3 ? double(std::max<int64_t>(1, s.parallelism.dataParallel()))
                                           : 1.0;
    r.engineOnTrainer = !r.offline && (rl.rollout.placement == RolloutPlacement::Colocated ||
                                       rl.rollout.engine == ServingEngine::Transformers);
    r.engineOwnWeights = r.engineOnTrainer && rl.rollout.engine != ServingEngine::Transformers;

    // The update: the top level's trainer at prompt + response tokens; pairwise algorithms
    // concatenate chosen and rejected (trl/trainer/dpo_trainer.py concatenated_forward: 2 x b).
    r.trainer = s;
    r.trainer.rl = RlConfig{};
    r.trainer.training.sequenceLength = r.tokens;
    if (r.offline)
        r.trainer.training.microBatchSize *= 2;
    // The RL losses do not run the model's cross-entropy: their logits are planned by
    // updateLogitsBytes (training_phase.cpp). The step is estimated without the vocabulary
    // logits (the fused-linear loss keeps only the hidden-state gradient and one chunk).
    r.trainer.training.loss = LossKind::FusedLinear;
    r.policyStep = estimate(r.trainer);
    if (r.engineOnTrainer)
        r.engine = planEngine(s, r);

    r.policyWeights = residentBytes(r.policyStep, Component::Parameters);
    r.policyOptimizer = residentBytes(r.policyStep, Component::OptimizerStates);
    const double total = double(r.policyStep.parameters.total);
    // The reference in 16 bits: verl fsdp_workers.py loads non-actor roles in bfloat16 and
    // shards them with FSDP; TRL loads it with the policy's model_init_kwargs and prepares it
    // with DeepSpeed ZeRO-3 or FSDP where the policy is (prepare_deepspeed, prepare_fsdp).
    if (r.referenceCopy)
        r.referenceWeights = total * r.c / r.shard;
    if (rl.hasRewardModel) {
        const ParameterCounts rm = countParameters(rl.rewardModel);
        r.rewardWeights = double(rm.total) * 2.0 / r.shard; // verl RewardModelWorker: bf16
        r.rewardLayers = rl.rewardModel.layers;
        r.rewardLayerBytes = double(rm.perLayer) * 2.0;
    }
    // verl's critic is the actor's model with a value head (critic.model.path defaults to the
    // actor's; fsdp_workers.py CriticWorker, model_dtype fp32, AdamW): its states as the policy's.
    if (rl.critic)
        r.criticState = r.policyWeights + r.policyOptimizer;
    r.runtimeOutside = std::max(0.0, r.policyStep.peak.device - r.policyStep.peak.reserved);
    return r;
}

} // namespace vramplan
