// The `rl` object of a scenario file (SPEC §3 "Reinforcement learning", with the extensions of
// docs/rl.md): spellings, ranges, the reward model as a model object or a preset id, and the
// object written back. A file without `rl` reads and writes as before.

#include "formats/enum_names.h"
#include "formats/json_reader.h"
#include "formats/scenario_json.h"
#include "formats/scenario_readers.h"

namespace vramplan {

VRAMPLAN_ENUM_TABLE(RlAlgorithm, {RlAlgorithm::Grpo, "grpo"}, {RlAlgorithm::Ppo, "ppo"},
                    {RlAlgorithm::Dpo, "dpo"}, {RlAlgorithm::Orpo, "orpo"},
                    {RlAlgorithm::Kto, "kto"}, {RlAlgorithm::Rloo, "rloo"},
                    {RlAlgorithm::ReinforcePp, "reinforce_pp"})
VRAMPLAN_ENUM_TABLE(RlFramework, {RlFramework::Verl, "verl"}, {RlFramework::Trl, "trl"},
                    {RlFramework::Openrlhf, "openrlhf"}, {RlFramework::MsSwift, "ms_swift"})
VRAMPLAN_ENUM_TABLE(RolloutPlacement, {RolloutPlacement::Colocated, "colocated"},
                    {RolloutPlacement::Separate, "separate"})

namespace scenario_json_internal {
namespace {

using nlohmann::json;

// Prompts and responses beyond 2^24 tokens are typos (maxSequence); products stay finite.
constexpr int64_t maxGroup = int64_t(1) << 16;

// `reward_model`: null, a preset id, or a model object read as the top-level `model` is (its
// errors renamed to this field).
bool readRewardModel(const json &value, RlConfig &rl, std::string &error)
{
    if (value.is_null())
        return true;
    const json document = {{"model", value.is_string() ? json{{"preset", value}} : value}};
    if (!value.is_string() && !value.is_object()) {
        error = "rl.reward_model: must be null, a preset id or a model object, got " +
                describeJson(value);
        return false;
    }
    std::string modelError;
    if (!readModel(document, rl.rewardModel, modelError)) {
        error = modelError.rfind("model", 0) == 0 ? "rl.reward_model" + modelError.substr(5)
                                                   : "rl.reward_model: " + modelError;
        return false;
    }
    rl.hasRewardModel = true;
    return true;
}

bool readRollout(JsonReader &parent, const json &object, RolloutConfig &out, std::string &error)
{
    JsonReader r(object, "rl.rollout", error);
    r.enumeration("engine", out.engine);
    std::string version;
    if (r.string("engine_version", version, 64) && !version.empty() &&
        !parseReleaseVersion(version, toString(out.engine), "rl.rollout.engine_version",
                             out.engineVersion, error))
        return false;
    r.enumeration("placement", out.placement);
    r.integer("gpus", out.gpus, 1, maxGpus);
    r.number("gpu_memory_utilization", out.gpuMemoryUtilization, 0.0, 1.0, true);
    r.integer("sleep_level", out.sleepLevel, 0, 2);
    r.integer("tensor_parallel", out.tensorParallel, 1, maxParallel);
    r.integer("max_num_seqs", out.maxNumSeqs, 1, maxBatch);
    bool graphs = true;
    if (r.boolean("cuda_graphs", graphs))
        out.cudaGraphs = graphs ? 1 : 0;
    r.finish();
    if (r.ok() && out.placement == RolloutPlacement::Separate && out.gpus == 0)
        return r.fail("rl.rollout.gpus", "is required when placement is separate");
    return parent.ok() && r.ok();
}

} // namespace

bool readRl(const json &document, RlConfig &out, std::string &error)
{
    if (!present(document, "rl"))
        return true;
    JsonReader r(document["rl"], "rl", error);
    RlConfig rl;
    rl.given = true;
    r.enumeration("algorithm", rl.algorithm);
    r.enumeration("framework", rl.framework);
    std::string version;
    if (r.string("framework_version", version, 64) && !version.empty() &&
        !parseReleaseVersion(version, toString(rl.framework), "rl.framework_version",
                             rl.frameworkVersion, error))
        return false;
    r.boolean("reference_model", rl.referenceModel);
    r.accept("reward_model");
    r.boolean("critic", rl.critic);
    r.integer("group_size", rl.groupSize, 1, maxGroup);
    r.integer("prompt_tokens", rl.promptTokens, 1, maxSequence);
    r.integer("response_tokens", rl.responseTokens, 1, maxSequence);
    if (const json *rollout = r.object("rollout"); rollout && !readRollout(r, *rollout, rl.rollout, error))
        return false;
    if (const json *offload = r.object("offload")) {
        JsonReader o(*offload, "rl.offload", error);
        o.boolean("policy_parameters", rl.offload.policyParameters);
        o.boolean("policy_optimizer", rl.offload.policyOptimizer);
        o.boolean("reference", rl.offload.reference);
        o.finish();
    }
    r.integer("log_prob_micro_batch_size", rl.logProbMicroBatchSize, 1, maxBatch);
    r.number("beta", rl.beta, 0.0, 1e6);
    r.boolean("precompute_ref_log_probs", rl.precomputeRefLogProbs);
    bool entropy = false;
    if (r.boolean("entropy", entropy))
        rl.entropy = entropy ? 1 : 0;
    r.finish();
    if (!r.ok())
        return false;
    if (document["rl"].contains("reward_model") &&
        !readRewardModel(document["rl"]["reward_model"], rl, error))
        return false;
    if (rl.promptTokens > maxSequence - rl.responseTokens)
        return r.fail("rl.response_tokens", "prompt_tokens + response_tokens must be <= " +
                                                std::to_string(maxSequence));
    out = std::move(rl);
    return true;
}

json rlToJson(const RlConfig &rl)
{
    const RolloutConfig &g = rl.rollout;
    json rollout = {{"engine", toString(g.engine)},
                    {"placement", toString(g.placement)},
                    {"tensor_parallel", g.tensorParallel}};
    if (g.engineVersion.given)
        rollout["engine_version"] = frameworkVersionText(g.engineVersion);
    if (g.gpus > 0)
        rollout["gpus"] = g.gpus;
    if (g.gpuMemoryUtilization > 0)
        rollout["gpu_memory_utilization"] = g.gpuMemoryUtilization;
    if (g.sleepLevel >= 0)
        rollout["sleep_level"] = g.sleepLevel;
    if (g.maxNumSeqs > 0)
        rollout["max_num_seqs"] = g.maxNumSeqs;
    if (g.cudaGraphs >= 0)
        rollout["cuda_graphs"] = g.cudaGraphs == 1;
    json out = {{"algorithm", toString(rl.algorithm)},
                {"framework", toString(rl.framework)},
                {"reference_model", rl.referenceModel},
                {"reward_model", nullptr},
                {"critic", rl.critic},
                {"group_size", rl.groupSize},
                {"prompt_tokens", rl.promptTokens},
                {"response_tokens", rl.responseTokens},
                {"rollout", rollout},
                {"offload", {{"policy_parameters", rl.offload.policyParameters},
                             {"policy_optimizer", rl.offload.policyOptimizer},
                             {"reference", rl.offload.reference}}}};
    if (rl.frameworkVersion.given)
        out["framework_version"] = frameworkVersionText(rl.frameworkVersion);
    if (rl.hasRewardModel) {
        Scenario holder;
        holder.model = rl.rewardModel;
        out["reward_model"] = scenarioToJson(holder)["model"];
    }
    if (rl.logProbMicroBatchSize > 0)
        out["log_prob_micro_batch_size"] = rl.logProbMicroBatchSize;
    if (rl.beta >= 0)
        out["beta"] = rl.beta;
    if (rl.precomputeRefLogProbs)
        out["precompute_ref_log_probs"] = true;
    if (rl.entropy >= 0)
        out["entropy"] = rl.entropy == 1;
    return out;
}

} // namespace scenario_json_internal
} // namespace vramplan
