// Training: the policy's update step as the training estimator plans it (core/estimate.cpp on
// the trainer's scenario: sequence = prompt + response, micro-batch = the PPO micro-batch per
// GPU, x2 for pairwise algorithms), with the reference, reward model and critic resident beside
// it, the engine asleep, and the per-token tensors of the RL loss. verl updates the critic
// before the actor (ray_trainer.py fit); the critic's step has no vocabulary logits, so the
// actor's step with the critic's states resident is the larger of the two.

#include "rl/rl_setup.h"

#include <algorithm>

namespace vramplan {
namespace {

constexpr std::string_view stepNames[componentCount] = {
    "policy update: parameters",       "policy update: gradients",
    "policy update: optimizer states", "policy update: saved activations",
    "policy update: hidden-state gradient (loss)", "policy update: temporary buffers",
    "policy update: CUDA context, NCCL", "policy update: KV cache"};

// Per-token fp32 tensors of the PPO/GRPO loss over the micro-batch's responses: log_prob,
// old_log_prob, ref_log_prob, advantages, the ratio, the two clipped losses and the KL term
// (verl/trainer/ppo/core_algos.py compute_policy_loss and kl_penalty).
constexpr double lossTensors = 8;

} // namespace

const std::string_view updateLogitsName = "policy update: logits of the RL loss";
const std::string_view updateLogitsFormula =
    "verl: b*T*V*c; TRL: 3*b*rows*V*c (rows: R+1, DPO: T with b doubled)";
const std::string_view updateLogitsSource =
    "verl dp_actor.py _forward_micro_batch, flash_attn cross_entropy_loss(inplace_backward); "
    "trl utils.py selective_log_softmax";

double updateLogitsBytes(const RlSetup &r)
{
    const Scenario &s = *r.scenario;
    const double b = double(r.trainer.training.microBatchSize);
    const double V = double(s.model.vocabSize) /
                     double(std::max<int64_t>(1, s.parallelism.tensorParallel));
    if (s.rl.framework == RlFramework::Trl || s.rl.framework == RlFramework::MsSwift ||
        r.offline) {
        // TRL: selective_log_softmax takes log_softmax of each sequence, whose output autograd
        // keeps for backward (all of them by the end of forward); backward stacks the rows'
        // gradients into one logits-sized tensor and divides it by the temperature once more.
        const double rows = r.ownLogitsOnly ? double(s.rl.responseTokens + 1) : double(r.tokens);
        return 3.0 * b * rows * V * r.c;
    }
    // verl: the head's 16-bit logits over the sequence, saved by flash-attn's cross-entropy,
    // which writes their gradient in place (inplace_backward=True).
    return b * double(r.tokens) * V * r.c;
}

double addTraining(const RlSetup &r, RlPhaseSink &out, Phase &stepPhase)
{
    const Scenario &s = *r.scenario;
    const Estimate &step = r.policyStep;
    const double slack = std::max(0.0, step.peak.reserved - step.peak.allocated);
    // The RL loss's logits live from the end of forward into the start of backward: the update
    // peaks in whichever phase of the step is largest with them where they are alive.
    const double logits = updateLogitsBytes(r);
    const PhaseTotals *at = nullptr;
    double largest = -1;
    for (const auto &ph : step.phases) {
        if (!ph.present || !(phaseBit(ph.phase) & trainingPhases))
            continue;
        const bool withLogits = ph.phase == Phase::Forward || ph.phase == Phase::LossBackward;
        const double bytes = ph.allocated + (withLogits ? logits : 0.0);
        if (bytes > largest) {
            largest = bytes;
            at = &ph;
        }
    }
    if (at)
        stepPhase = at->phase;
    for (int i = 0; i < componentCount && at; ++i) {
        const Component c = static_cast<Component>(i);
        out.add(RlParty::Policy, c,
                c == Component::Framework ? "policy update: framework buffers" : stepNames[i],
                "the training estimate in the update's peak phase",
                "core/estimate.cpp estimate() at sequence P + R", at->byComponent[i]);
    }
    out.add(RlParty::Policy, Component::Framework, stepNames[int(Component::Framework)],
            "the training estimate (device - reserved)", "core/estimate_peak.cpp",
            std::max(0.0, step.peak.device - step.peak.reserved), true);
    if (at && (at->phase == Phase::Forward || at->phase == Phase::LossBackward))
        out.add(RlParty::Policy, Component::LogitsAndLoss, updateLogitsName, updateLogitsFormula,
                updateLogitsSource, logits);
    if (!s.rl.offload.reference)
        out.add(RlParty::Reference, Component::Parameters, "reference model weights",
                "P * c / shard", "verl fsdp_workers.py; trl grpo_trainer.py ref_model",
                r.referenceWeights);
    out.add(RlParty::RewardModel, Component::Parameters, "reward model weights",
            "P_rm * 2 / shard", "verl fsdp_workers.py RewardModelWorker", r.rewardWeights);
    out.add(RlParty::Critic, Component::OptimizerStates, "critic weights and optimizer states",
            "as the policy's", "verl fsdp_workers.py CriticWorker", r.criticState);
    addEngineAsleep(r, out);
    if (!r.offline)
        out.add(RlParty::Policy, Component::LogitsAndLoss, "per-token tensors of the RL loss",
                "8 * b * R * 4", "verl/trainer/ppo/core_algos.py compute_policy_loss, kl_penalty",
                lossTensors * double(s.training.microBatchSize) * double(s.rl.responseTokens) *
                    4.0);
    return slack;
}

} // namespace vramplan
