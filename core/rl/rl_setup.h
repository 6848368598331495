#pragma once
// What every phase of an RL estimate shares (internal to rl/): the scenario's `rl` section with
// the defaults of its framework's release filled in, the trainer's derived scenario and its
// training estimate, the rollout engine's plan, and what each model keeps resident on a trainer
// GPU. Built once by resolveRl (rl_setup.cpp); the phases read it (generation_phase.cpp,
// experience_phase.cpp, training_phase.cpp).

#include "estimate.h"
#include "rl_plan.h"
#include "scenario.h"
#include "serving/serving.h"

#include <array>
#include <string_view>

namespace vramplan {

// Who holds a byte: the peak's holder is the party with the most bytes in the phase.
enum class RlParty
{
    Engine,
    Policy,
    Reference,
    RewardModel,
    Critic,
    Runtime
};
constexpr int rlPartyCount = 6;
std::string_view rlPartyName(RlParty party); // "rollout engine"

struct RlSetup
{
    const Scenario *scenario = nullptr;
    Scenario trainer;    // the top level without `rl`: sequence prompt + response, the RL batch
    Estimate policyStep; // estimate(trainer): the policy's update step

    // Resolved settings (rl_config.h names each framework default and its source).
    bool offline = false;  // DPO, ORPO, KTO: no rollout, pairs from the data set
    bool reference = false;       // a reference forward happens
    bool referenceCopy = false;   // ... with a second copy of the weights (not LoRA's base)
    bool engineOnTrainer = false; // a colocated vLLM/SGLang engine, or generate in-process
    bool engineOwnWeights = false; // the engine holds a copy of its own (vLLM, SGLang)
    bool entropy = false;          // the actor's forward computes the entropy too
    bool ownLogitsOnly = false;    // TRL: logits_to_keep, only the response's logits exist
    double utilization = 0;
    int64_t sleepLevel = 0;
    bool cudaGraphs = true;
    int64_t maxNumSeqs = 0;
    int64_t logProbMicroBatch = 1; // sequences per no-grad forward
    int64_t tokens = 0;            // prompt + response
    double c = 2;                  // bytes of one compute element (bf16; fp32 recipes: 4)
    double shard = 1;              // frozen models sharded by FSDP / ZeRO-3 across the trainers
    ServingPlan engine;

    // Resident on a trainer GPU between phases:
    double policyWeights = 0;
    double policyOptimizer = 0;
    double referenceWeights = 0; // a second copy, bf16, sharded like the policy
    double rewardWeights = 0;
    double criticState = 0;  // weights and optimizer states of the critic
    double runtimeOutside = 0; // CUDA context and NCCL, as the training step has them
    int64_t rewardLayers = 0;
    double rewardLayerBytes = 0; // one gathered layer of the reward model
};

RlSetup resolveRl(const Scenario &scenario);

// Adds items of one phase and keeps the bytes of each party.
class RlPhaseSink
{
public:
    explicit RlPhaseSink(RlPhase &phase) : m_phase(phase), m_items(phase.items) {}
    void add(RlParty party, Component c, std::string_view name, std::string_view formula,
             std::string_view source, double bytes, bool outside = false)
    {
        if (!(bytes > 0))
            return;
        m_items.add(c, name, formula, source, bytes, 1, allPhases, outside);
        m_byParty[static_cast<int>(party)] += bytes;
    }
    // Totals, the components and the holder; extraReserved: allocator slack beyond allocated.
    void finish(double extraReserved);

private:
    RlPhase &m_phase;
    ItemSink m_items;
    std::array<double, rlPartyCount> m_byParty{};
};

// What the trainer keeps on its GPU in a phase other than its update (experience, generation),
// and the engine's share while it sleeps (its weights and KV cache kept unless sleep frees them).
void addResident(const RlSetup &setup, RlPhaseKind phase, RlPhaseSink &out);
void addEngineAsleep(const RlSetup &setup, RlPhaseSink &out);

void addGeneration(const RlSetup &setup, RlPhaseSink &out);
void addExperience(const RlSetup &setup, RlPhaseSink &out);
// Returns the allocator slack the update step's reserved figure adds; stepPhase: the phase of
// the update step it peaks in.
double addTraining(const RlSetup &setup, RlPhaseSink &out, Phase &stepPhase);
// The vocabulary logits of the RL loss in the policy's update, as the framework computes them.
double updateLogitsBytes(const RlSetup &setup);
extern const std::string_view updateLogitsName, updateLogitsFormula, updateLogitsSource;

} // namespace vramplan
