// Experience: the no-grad forwards that score the rollouts, one model at a time in their
// micro-batches (verl ray_trainer.py fit: compute_log_prob, compute_ref_log_prob,
// compute_values, compute_rm_score; TRL grpo_trainer.py _generate_and_score_completions), with
// the engine asleep and the trainer's resident state beside them. The phase peaks at the
// largest forward: its logits over the vocabulary, the entropy where the actor computes it, one
// layer's working activations and, under FSDP/ZeRO-3, one gathered layer.

#include "rl/rl_setup.h"

#include <algorithm>

namespace vramplan {
namespace {

struct ForwardNames
{
    RlParty party;
    std::string_view logits, copy, row, entropy, working, gathered;
};
constexpr ForwardNames policyForward{
    RlParty::Policy, "policy log-probs: logits", "policy log-probs: logits / temperature (copy)",
    "policy log-probs: log-softmax of one sequence", "policy log-probs: entropy (softmax, p*logits)",
    "policy log-probs: one layer's working activations", "policy log-probs: one gathered layer"};
constexpr ForwardNames referenceForward{
    RlParty::Reference, "reference log-probs: logits",
    "reference log-probs: logits / temperature (copy)",
    "reference log-probs: log-softmax of one sequence", "reference log-probs: entropy",
    "reference log-probs: one layer's working activations",
    "reference log-probs: one gathered layer"};
constexpr ForwardNames criticForward{
    RlParty::Critic, "", "", "", "", "critic values: one layer's working activations",
    "critic values: one gathered layer"};
constexpr ForwardNames rewardForward{
    RlParty::RewardModel, "", "", "", "", "reward model: one layer's working activations",
    "reward model: one gathered layer"};

struct ForwardTerms
{
    const ForwardNames *names = nullptr;
    double logits = 0, copy = 0, row = 0, entropy = 0, working = 0, gathered = 0;
    double total() const { return logits + copy + row + entropy + working + gathered; }
};

ForwardTerms forward(const RlSetup &r, const ForwardNames &names, bool vocabulary, bool entropy,
                     double layerBytes, bool gathered)
{
    const Scenario &s = *r.scenario;
    const ModelConfig &m = s.model;
    const double b = double(r.logProbMicroBatch) * (r.offline ? 2.0 : 1.0);
    const double T = double(r.tokens);
    const double R = double(s.rl.responseTokens);
    const double V = double(m.vocabSize);
    const double tp = double(std::max<int64_t>(1, s.parallelism.tensorParallel));
    const double f = double(m.isMoe() && m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize
                                                                         : m.ffnHiddenSize);
    ForwardTerms t;
    t.names = &names;
    if (vocabulary) {
        // TRL keeps the response's logits only (logits_to_keep = R + 1); verl and OpenRLHF take
        // the model's logits over the whole sequence and slice them (dp_actor.py
        // _forward_micro_batch). 16-bit: the HF head's output is not upcast (transformers >= 4.46
        // modeling_*.py), verl runs it under autocast bf16.
        const double rows = r.ownLogitsOnly ? R + 1 : T;
        t.logits = b * rows * V / tp * r.c;
        if (r.ownLogitsOnly)
            t.copy = t.logits; // `logits = logits / self.temperature` is not in place (TRL)
        // TRL's selective_log_softmax loops over sequences (trl/trainer/utils.py); verl's
        // logprobs_from_logits takes flash-attn's cross_entropy_loss (no vocabulary-sized buffer).
        if (r.ownLogitsOnly || r.offline)
            t.row = rows * V / tp * r.c;
        // verl/utils/torch_functional.py entropy_from_logits: softmax(logits) and pd * logits over
        // the response, both the size of the logits.
        if (entropy)
            t.entropy = 2 * b * R * V / tp * r.c;
    }
    // One layer's working set of a no-grad forward (core/training forward_pass.cpp).
    t.working = b * T * (4 * double(m.hiddenSize) + 3 * f / tp) * r.c;
    if (gathered)
        t.gathered = layerBytes;
    return t;
}

} // namespace

void addExperience(const RlSetup &r, RlPhaseSink &out)
{
    const Scenario &s = *r.scenario;
    addResident(r, RlPhaseKind::Experience, out);
    addEngineAsleep(r, out);
    const double layer = double(r.policyStep.parameters.perLayer) * r.c;
    const bool sharded = r.shard > 1;
    ForwardTerms largest;
    auto consider = [&largest](const ForwardTerms &t) {
        if (!largest.names || t.total() > largest.total())
            largest = t;
    };
    // verl computes the actor's old log-probs (with the entropy) on every step; TRL only when
    // num_iterations > 1 or steps_per_generation > gradient_accumulation_steps (not planned).
    if (!r.offline && (s.rl.framework == RlFramework::Verl ||
                       s.rl.framework == RlFramework::Openrlhf))
        consider(forward(r, policyForward, true, r.entropy, layer, sharded));
    if (r.reference)
        consider(forward(r, referenceForward, true, false, layer,
                         sharded || s.rl.offload.reference));
    if (s.rl.critic)
        consider(forward(r, criticForward, false, false, layer, sharded));
    if (s.rl.hasRewardModel)
        consider(forward(r, rewardForward, false, false, r.rewardLayerBytes, sharded));
    if (!largest.names)
        return;
    const ForwardNames &n = *largest.names;
    out.add(n.party, Component::LogitsAndLoss, n.logits, "b * rows * V * c (rows: T, TRL R+1)",
            "verl dp_actor.py _forward_micro_batch; trl grpo_trainer.py "
            "_get_per_token_logps_and_entropies",
            largest.logits);
    out.add(n.party, Component::LogitsAndLoss, n.copy, "b * (R+1) * V * c",
            "trl grpo_trainer.py: logits / self.temperature", largest.copy);
    out.add(n.party, Component::LogitsAndLoss, n.row, "rows * V * c (one sequence at a time)",
            "trl/trainer/utils.py selective_log_softmax", largest.row);
    out.add(n.party, Component::LogitsAndLoss, n.entropy, "2 * b * R * V * c",
            "verl/utils/torch_functional.py entropy_from_logits", largest.entropy);
    out.add(n.party, Component::Activations, n.working, "b * T * (4h + 3f/t) * c",
            "core/training forward_pass.cpp (no-grad forward)", largest.working);
    out.add(n.party, Component::Temporary, n.gathered, "one layer's weights * c",
            "FSDP all-gather of one unit (torch.distributed.fsdp)", largest.gathered);
}

} // namespace vramplan
