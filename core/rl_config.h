#pragma once
// Post-training with a rollout engine (SPEC §3 `rl`, read with training.mode train): the
// algorithm, the framework that runs it, which models exist beside the policy, the lengths of
// prompts and responses, the rollout engine and where it lives, and the offload switches. The
// top-level `training`, `parallelism` and `framework` describe the policy's trainer (its
// micro-batch is the PPO micro-batch per GPU); this section adds what RL adds. The JSON mapping
// lives in formats/scenario_rl_reader.cpp; the estimate per phase in rl/ (docs/rl.md).
//
// A field left at its "framework default" value (0, or -1 for the switches) takes the default
// of the framework's release, resolved in rl/rl_setup.cpp (resolveRl):
//   verl 0.5 (verl/trainer/config/rollout/rollout.yaml): gpu_memory_utilization 0.5,
//     free_cache_engine true (sleep level 1), enforce_eager true (no CUDA graphs),
//     max_num_seqs 1024; the actor computes the entropy with its old log-probabilities.
//   TRL 0.21 (trl/trainer/grpo_config.py): vllm_gpu_memory_utilization 0.3, no sleep mode
//     (vllm_enable_sleep_mode from 0.23, level 1), CUDA graphs on, beta 0.0 (no reference).

#include "model_config.h"
#include "release_version.h"
#include "serving_config.h"

#include <cstdint>

namespace vramplan {

enum class RlAlgorithm
{
    Grpo,
    Ppo,
    Dpo,
    Orpo,
    Kto,
    Rloo,
    ReinforcePp
};

enum class RlFramework
{
    Verl,
    Trl,
    Openrlhf,
    MsSwift
};

// colocated: the engine shares the training GPUs and sleeps between phases (verl's hybrid
// engine, TRL's vllm_mode "colocate"); separate: GPUs of its own (TRL's vllm_mode "server",
// OpenRLHF's vllm_num_engines), so the trainer's GPUs hold none of it.
enum class RolloutPlacement
{
    Colocated,
    Separate
};

struct RolloutConfig
{
    ServingEngine engine = ServingEngine::Vllm; // transformers: generate in the training process
    FrameworkVersion engineVersion;
    RolloutPlacement placement = RolloutPlacement::Colocated;
    int64_t gpus = 0;                // separate placement: the engine's own GPUs
    double gpuMemoryUtilization = 0; // 0: the framework's default
    int64_t sleepLevel = -1;         // 0 none, 1, 2; -1: the framework's default
    int64_t tensorParallel = 1;
    int64_t maxNumSeqs = 0;   // 0: the framework's default
    int64_t cudaGraphs = -1;  // extension `rollout.cuda_graphs`: 1 on, 0 eager, -1 default
};

struct RlOffload
{
    bool policyParameters = false;
    bool policyOptimizer = false;
    bool reference = false;
};

struct RlConfig
{
    bool given = false; // the scenario file has an `rl` object
    RlAlgorithm algorithm = RlAlgorithm::Grpo;
    RlFramework framework = RlFramework::Verl;
    FrameworkVersion frameworkVersion;
    bool referenceModel = true;
    bool hasRewardModel = false; // `reward_model` is a model object, not null
    ModelConfig rewardModel;
    bool critic = false;
    int64_t groupSize = 8;
    int64_t promptTokens = 1024;
    int64_t responseTokens = 4096;
    RolloutConfig rollout;
    RlOffload offload;
    // Extensions of SPEC §3 (docs/rl.md):
    int64_t logProbMicroBatchSize = 0; // log_prob_micro_batch_size_per_gpu; 0: the micro-batch
    double beta = -1;                  // KL coefficient; 0 drops the reference; -1: default
    bool precomputeRefLogProbs = false; // DPO: reference log-probabilities computed beforehand
    int64_t entropy = -1;               // the actor's entropy with its log-probs; -1: default

    bool present() const { return given; }
};

} // namespace vramplan
